import nock from 'nock';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, runWorkflow, type NodeSpec, type RunResult } from '../harness';
import { TOKEN, WEB } from '../../unit/storage/run-storage';

export {
	BASE,
	form,
	PASSWORD,
	rl,
	sessionLogin,
	TOKEN,
	unexpectedRequests,
	WEB,
} from '../../unit/storage/run-storage';

export interface NodeRun extends RunResult {
	out: INodeExecutionData[];
}

/** Manual Trigger → one node of this pack, through n8n's engine with nock answering. */
export async function runNode(
	type: string,
	parameters: INodeParameters,
	options: { continueOnFail?: boolean; credentials?: object; items?: number } = {},
): Promise<NodeRun> {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
	];
	nodes.push({
		name: 'Node',
		type: `n8n-nodes-cloud-storage.${type}`,
		parameters,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	});
	const credentials = (options.credentials as Record<string, object>) ?? {
		cloudStorageTokenApi: { ...TOKEN },
	};
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'Node') },
		{ credentials: credentials as never },
	);
	return { ...result, out: result.nodeOutput('Node') };
}

export const runSearch = (parameters: INodeParameters, options?: Parameters<typeof runNode>[2]) =>
	runNode('cloudStorageSearch', { resource: 'item', ...parameters }, options);

export interface SearchCall {
	fields: Record<string, string>;
	cookie?: string;
	authorization?: string;
}

/** Answers search pages from `pages` (by table_page), recording each request's fields and auth headers. */
export function searchPages(
	pages: Array<
		| { rows: object[]; page_count: number; total_rows?: number }
		| { status: 'error'; message: string }
	>,
	calls: SearchCall[] = [],
) {
	return nock(WEB)
		.post('/ajax/search.php')
		.times(pages.length)
		.reply(function (_uri, body) {
			const fields = Object.fromEntries(new URLSearchParams(String(body)));
			const header = (name: string) => {
				const value = this.req.headers[name];
				return Array.isArray(value) ? value[0] : value;
			};
			calls.push({ fields, cookie: header('cookie'), authorization: header('authorization') });
			const page = pages[Number(fields.table_page ?? 0)] ?? { rows: [], page_count: 0 };
			return [200, { status: 'ok', total_time: 0.01, ...page }];
		});
}

export const row = (type: 'file' | 'folder', hash: string, name = `${type} ${hash}`) => ({
	type,
	name,
	hash,
	size: 10,
	mod_date: '2026-03-01 10:00:00',
	path: `/${name}`,
	public_access_type: 'PRIVATE',
	parent_hash: 'P1',
	content_type: type === 'file' ? 'text/plain' : null,
	file_count: type === 'folder' ? 0 : null,
	subfolder_count: type === 'folder' ? 0 : null,
	access_rights: null,
});
