import nock from 'nock';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, runWorkflow, type NodeSpec, type RunResult } from '../../engine/harness';

export const BASE = 'https://api.example.test';
export const WEB = 'https://www.example.test';
export const TOKEN = {
	baseUrl: BASE,
	webUrl: WEB,
	user: 'demo',
	accessToken: 'tok-secret-1',
	sessionId: '',
};
export const PASSWORD = {
	baseUrl: BASE,
	webUrl: WEB,
	user: 'demo',
	password: 'pw-secret-1',
	sessionId: '',
};

export const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

export interface StorageRun extends RunResult {
	out: INodeExecutionData[];
}

/** Runs Manual Trigger → (optional binary fixture) → Cloud Storage through n8n's engine, with nock answering. */
export async function runStorage(
	parameters: INodeParameters,
	options: {
		binary?: { content: string; fileName?: string; mimeType?: string };
		continueOnFail?: boolean;
		credentials?: object;
	} = {},
): Promise<StorageRun> {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
	];
	if (options.binary) {
		nodes.push({
			name: 'File',
			type: 'engine-test.binaryFixture',
			parameters: {
				content: options.binary.content,
				fileName: options.binary.fileName ?? 'report.pdf',
				mimeType: options.binary.mimeType ?? 'application/pdf',
			},
		});
	}
	nodes.push({
		name: 'Storage',
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		parameters,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	});
	const credentials = (options.credentials as Record<string, object>) ?? {
		cloudStorageTokenApi: { ...TOKEN },
	};
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: credentials as never },
	);
	return { ...result, out: result.nodeOutput('Storage') };
}

/** Collects every request that reached nock but matched no interceptor: bad input must send none. */
export function unexpectedRequests(): string[] {
	const seen: string[] = [];
	nock.emitter.on('no match', (req: { method?: string; path?: string }) =>
		seen.push(`${req.method} ${req.path}`),
	);
	return seen;
}

export function form(body: string): Record<string, string> {
	return Object.fromEntries(new URLSearchParams(body));
}

/** The token credential first obtains a session (kept for session-only endpoints). */
export function sessionLogin(times = 1) {
	return nock(BASE)
		.post('/api/authenticate_user.php')
		.times(times)
		.reply(200, {
			Success: true,
			Message: 'ok',
			SessionID: 'sess-1',
			UserData: { root_upload_hash: 'ROOTHASH1' },
		});
}
