import nock from 'nock';

import { TASK_FIELDS } from './task-fields';

export { TASK_FIELDS };
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow, type RunResult } from '../../engine/harness';

export const BASE = 'https://api.example.test';
export const TOKEN = {
	baseUrl: BASE,
	webUrl: 'https://www.example.test',
	user: 'demo',
	accessToken: 'tok-secret-1',
	sessionId: 'sess-1',
};

export const id = (value: number | string) => ({ __rl: true, mode: 'id', value: String(value) });
export const mapped = (value: Record<string, unknown>) =>
	({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] }) as never;

export interface DmsRun extends RunResult {
	out: INodeExecutionData[];
}

/** Manual Trigger → a DMS node, through n8n's engine, with nock answering. */
export async function runDms(
	node: 'cloudStorageDmsTask' | 'cloudStorageContactPerson',
	parameters: INodeParameters,
	continueOnFail = false,
): Promise<DmsRun> {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'DMS',
			type: `${PACKAGE_NAME}.${node}`,
			parameters,
			...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DMS') },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
	);
	return { ...result, out: result.nodeOutput('DMS') };
}

export interface Sent {
	path: string;
	body: Record<string, unknown>;
	contentType: string;
}

/**
 * Answers DMS calls from a table keyed by `<section>/<action>` and records each raw JSON body, so tests
 * see exactly what went over the wire. A table entry may be a list: one answer per call, in order.
 */
export function dmsApi(
	answers: Record<string, Array<[number, unknown?]> | [number, unknown?]>,
): Sent[] {
	const sent: Sent[] = [];
	const queues = new Map(
		Object.entries(answers).map(([key, value]) => [
			key,
			Array.isArray(value[0])
				? [...(value as Array<[number, unknown?]>)]
				: [value as [number, unknown?]],
		]),
	);
	nock(BASE)
		.persist()
		.post(/^\/api_dvs\/[a-z_0-9]+\/[a-z_]+$/)
		.reply(function (uri, body) {
			const key = uri.replace('/api_dvs/', '');
			sent.push({
				path: key,
				body: (typeof body === 'string' ? JSON.parse(body) : body) as Record<string, unknown>,
				contentType: String(this.req.headers['content-type']),
			});
			const queue = queues.get(key);
			if (!queue || queue.length === 0) return [599, ''];
			const [status, payload] = queue.length > 1 ? queue.shift()! : queue[0];
			return [
				status,
				payload === undefined ? '' : JSON.stringify(payload),
				{ 'Content-Type': 'application/json' },
			];
		});
	return sent;
}

/** The credential's user as the storage authenticator names it: the `creator` id of this user's documents. */
export const USER_ID = 1001;

/** Answers the authenticator the create proof asks for the credential's user (only after a lost answer). */
export function accountApi(userId: number = USER_ID): void {
	nock(BASE)
		.post('/api/authenticate_user.php')
		.reply(200, { Success: true, UserData: { ID: userId, UserName: 'demo' } });
}

/** What every document this user created carries, `date_created` in the service's stored clock. */
export const ours = (date_created: string) => ({
	creator: { id: USER_ID, display_name: 'Demo User' },
	date_created,
});
