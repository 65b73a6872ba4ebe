import nock from 'nock';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, runWorkflow, type NodeSpec, type RunResult } from '../harness';

export const BASE = 'https://api.example.test';
export const AI = 'https://ai.example.test';
export const BEARER = { userId: '1001', apiToken: 'tok-ai-secret', baseUrl: BASE, aiUrl: AI };
export const AUTHORIZATION = 'Bearer 1001:tok-ai-secret';

export interface NodeRun extends RunResult {
	out: INodeExecutionData[];
}

/** Manual Trigger → (binary fixture) → the node under test, through n8n's engine, with nock answering. */
export async function runNode(
	type: string,
	parameters: INodeParameters,
	options: {
		binary?: { content: string; fileName?: string; mimeType?: string };
		continueOnFail?: boolean;
		credentials?: object;
	} = {},
): Promise<NodeRun> {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
	];
	if (options.binary) {
		nodes.push({
			name: 'File',
			type: 'engine-test.binaryFixture',
			parameters: {
				content: options.binary.content,
				fileName: options.binary.fileName ?? 'photo.gif',
				mimeType: options.binary.mimeType ?? 'image/gif',
			},
		});
	}
	nodes.push({
		name: 'Node',
		type,
		parameters,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	});
	const credentials = (options.credentials as Record<string, object>) ?? {
		cloudStorageBearerApi: { ...BEARER },
	};
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: credentials as never },
	);
	return { ...result, out: result.nodeOutput('Node') };
}

export const runAi = async (
	parameters: INodeParameters,
	options: Parameters<typeof runNode>[2] = {},
) => await runNode('n8n-nodes-cloud-storage.cloudStorageAi', parameters, options);

/** Every request nock saw without a matching interceptor: input errors must send none. */
export function unexpectedRequests(): string[] {
	const seen: string[] = [];
	nock.emitter.on('no match', (req: { method?: string; path?: string }) =>
		seen.push(`${req.method} ${req.path}`),
	);
	return seen;
}

export const GIF = 'GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;';

/** A non-streamed generate answer as the service sends it. */
export function generateAnswer(response: unknown, extra: Record<string, unknown> = {}) {
	return {
		model: 'qwen3:8b',
		created_at: '2026-01-01T00:00:00Z',
		response,
		done: true,
		done_reason: 'stop',
		total_duration: 12_000_000,
		load_duration: 1_000_000,
		prompt_eval_count: 7,
		prompt_eval_duration: 2_000_000,
		eval_count: 5,
		eval_duration: 8_000_000,
		...extra,
	};
}

export function ndjson(lines: unknown[]): string {
	return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}
