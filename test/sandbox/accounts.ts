import { randomHash } from './ids.ts';
import type { Account, Plan } from './types.ts';

const GB = 1024 ** 3;
const TB = 1024 * GB;

/** Per-plan limits from the spec's Limits table; storage quota and queue size are not in the spec (sandbox values). */
export const PLAN_LIMITS: Record<
	Plan,
	{
		fileSizeLimit: number;
		folderSizeLimit: number | null;
		quotaBytes: number;
		queueSizeLimit: number;
	}
> = {
	FREE: {
		fileSizeLimit: 5 * GB,
		folderSizeLimit: 5 * GB,
		quotaBytes: 10 * GB,
		queueSizeLimit: 100,
	},
	PERSONAL: {
		fileSizeLimit: 10 * GB,
		folderSizeLimit: null,
		quotaBytes: 500 * GB,
		queueSizeLimit: 1000,
	},
	LIFETIME: { fileSizeLimit: 10 * GB, folderSizeLimit: null, quotaBytes: TB, queueSizeLimit: 1000 },
	PRO: { fileSizeLimit: 20 * GB, folderSizeLimit: null, quotaBytes: 2 * TB, queueSizeLimit: 5000 },
	BUSINESS: {
		fileSizeLimit: 50 * GB,
		folderSizeLimit: null,
		quotaBytes: 10 * TB,
		queueSizeLimit: 10000,
	},
	ENTERPRISE: {
		fileSizeLimit: 50 * GB,
		folderSizeLimit: null,
		quotaBytes: 100 * TB,
		queueSizeLimit: 10000,
	},
};

export interface AccountSeed {
	id?: number;
	username: string;
	email: string;
	password: string;
	token: string;
	plan: Plan;
	firstName?: string;
	lastName?: string;
	requires2fa?: boolean;
	fileSizeLimit?: number;
	folderSizeLimit?: number | null;
	quotaBytes?: number;
	/** Fixed ROOT values keep seeded accounts stable across `reset`; the keys are deliberately old-style short ones. */
	rootHash?: string;
	rootEditKey?: string;
	rootUploadKey?: string;
}

export const DEMO_ACCOUNT = Object.freeze({
	id: 1001,
	username: 'demo',
	email: 'demo@example.com',
	password: 'demo-password',
	token: 'demo-token-0123456789abcdef',
	plan: 'BUSINESS',
	firstName: 'Demo',
	lastName: 'User',
	rootHash: 'q7RkZ2',
	rootEditKey: '5f0c9e21d4a7b3',
	rootUploadKey: 'a41be07c93d2',
} as const satisfies AccountSeed);

export const FREE_ACCOUNT = Object.freeze({
	id: 1002,
	username: 'free',
	email: 'free@example.com',
	password: 'free-password',
	token: 'free-token-fedcba9876543210',
	plan: 'FREE',
	firstName: 'Free',
	lastName: 'User',
	rootHash: 'F4aLp0x9QcTzR1',
	rootEditKey: '0b8e6f2a91c4d7e3',
	rootUploadKey: '7d2c5a0e9f13b6',
} as const satisfies AccountSeed);

/** Requires 2FA for password logins; its token stands for a service account's token, which skips the 2FA demand. */
export const TWOFA_ACCOUNT = Object.freeze({
	id: 1003,
	username: 'twofa',
	email: 'twofa@example.com',
	password: 'twofa-password',
	token: 'twofa-token-0f1e2d3c4b5a6978',
	plan: 'BUSINESS',
	firstName: 'Two',
	lastName: 'Factor',
	requires2fa: true,
	rootHash: 'T2fAr00tHashKbq81ZsWmPx0',
	rootEditKey: 'c3d9e1f07a2b5c8d4e6f1a0b9c7d2e5f',
	rootUploadKey: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
} as const satisfies AccountSeed);

/** In the demo organisation, but its group may write (and so read) DMS tasks only: projects, clients and contact persons answer 405. */
export const TASKS_ACCOUNT = Object.freeze({
	id: 1004,
	username: 'tasks',
	email: 'tasks@example.com',
	password: 'tasks-password',
	token: 'tasks-token-4d5e6f708192a3b4',
	plan: 'BUSINESS',
	firstName: 'Task',
	lastName: 'Writer',
	rootHash: 'TsK5r00tHashQw7e9Lm2Np4x',
	rootEditKey: '6a1f3c9e0b2d4f7a8c5e1b3d9f0a2c4e',
	rootUploadKey: '2b4d6f8a0c1e3a5c7e9b1d3f5a7c9e0b',
} as const satisfies AccountSeed);

export const SEEDED_ACCOUNTS: readonly AccountSeed[] = Object.freeze([
	DEMO_ACCOUNT,
	FREE_ACCOUNT,
	TWOFA_ACCOUNT,
	TASKS_ACCOUNT,
]);

export function newAccount(seed: AccountSeed, id: number): Account {
	const limits = PLAN_LIMITS[seed.plan];
	return {
		id,
		username: seed.username,
		email: seed.email,
		password: seed.password,
		tokens: [seed.token],
		plan: seed.plan,
		firstName: seed.firstName ?? seed.username,
		lastName: seed.lastName ?? '',
		requires2fa: seed.requires2fa ?? false,
		confirmedIps: new Set(),
		fileSizeLimit: seed.fileSizeLimit ?? limits.fileSizeLimit,
		folderSizeLimit:
			seed.folderSizeLimit === undefined ? limits.folderSizeLimit : seed.folderSizeLimit,
		queueSizeLimit: limits.queueSizeLimit,
		quotaBytes: seed.quotaBytes ?? limits.quotaBytes,
		userHash: randomHash(10, 16),
		rootFolderId: 0,
		encryptionKeys: null,
	};
}
