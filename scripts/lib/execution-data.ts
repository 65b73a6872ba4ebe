// Turns an execution as n8n's REST API returns it into something a test can assert on.
// `GET /rest/executions/:id` sends `data` as a string in the `flatted` format (JSON with shared references);
// it is decoded with the flatted that n8n itself depends on, so the format always matches the server.
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Json = Record<string, unknown>;

export type BinarySummary = {
	id?: string;
	fileName?: string;
	mimeType?: string;
	fileSize?: string;
	bytes?: number;
};
export type ItemSummary = { json: Json; binary?: Record<string, BinarySummary> };
export type NodeRunSummary = {
	status?: string;
	/** Items per output (index 0 is the main output). */
	outputs: ItemSummary[][];
	error?: { message: string; description?: string; httpCode?: string };
};
export type ExecutionSummary = {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	lastNodeExecuted?: string;
	/** The workflow-level error, when the execution failed. */
	error?: { message: string; node?: string };
	/** Runs per node name, in the order they happened. */
	nodes: Record<string, NodeRunSummary[]>;
	/** The decoded `data` of the execution, for anything the summary leaves out. */
	data: Json;
};

let parseFlatted: ((text: string) => unknown) | undefined;

function flattedFromRuntime(runtimeDir: string) {
	parseFlatted ??= (
		createRequire(join(runtimeDir, 'package.json'))('flatted') as { parse(text: string): unknown }
	).parse;
	return parseFlatted;
}

function summarizeRun(run: Json): NodeRunSummary {
	const main = ((run.data as Json | undefined)?.main ?? []) as Array<Json[] | null>;
	const outputs = main.map((items) =>
		(items ?? []).map((item) => ({
			json: (item.json ?? {}) as Json,
			...(item.binary ? { binary: item.binary as Record<string, BinarySummary> } : {}),
		})),
	);
	const error = run.error as Json | undefined;
	return {
		status: run.executionStatus as string | undefined,
		outputs,
		...(error
			? {
					error: {
						message: String(error.message ?? ''),
						description: error.description as string | undefined,
						httpCode: error.httpCode as string | undefined,
					},
				}
			: {}),
	};
}

export function summarizeExecution(execution: Json, runtimeDir: string): ExecutionSummary {
	const raw = execution.data;
	const data = (
		typeof raw === 'string' ? flattedFromRuntime(runtimeDir)(raw) : (raw ?? {})
	) as Json;
	const resultData = (data.resultData ?? {}) as Json;
	const runData = (resultData.runData ?? {}) as Record<string, Json[]>;
	const error = resultData.error as Json | undefined;
	return {
		id: String(execution.id),
		status: String(execution.status),
		mode: String(execution.mode),
		finished: Boolean(execution.finished),
		lastNodeExecuted: resultData.lastNodeExecuted as string | undefined,
		...(error
			? {
					error: {
						message: String(error.message ?? ''),
						node: (error.node as Json | undefined)?.name as string,
					},
				}
			: {}),
		nodes: Object.fromEntries(
			Object.entries(runData).map(([name, runs]) => [name, runs.map(summarizeRun)]),
		),
		data,
	};
}

/** The items a node emitted on one output (default: main output of its first run). */
export function itemsOf(
	execution: ExecutionSummary,
	node: string,
	output = 0,
	run = 0,
): ItemSummary[] {
	const runs = execution.nodes[node];
	if (!runs) {
		throw new Error(
			`Node "${node}" did not run in execution ${execution.id} (status ${execution.status}; ran: ${Object.keys(execution.nodes).join(', ') || 'nothing'})` +
				(execution.error ? `; error: ${execution.error.message}` : ''),
		);
	}
	return runs[run]?.outputs[output] ?? [];
}

/** One line per failed node, for assertion messages. */
export function describeErrors(execution: ExecutionSummary): string {
	const lines = Object.entries(execution.nodes).flatMap(([name, runs]) =>
		runs
			.filter((run) => run.error)
			.map(
				(run) =>
					`${name}: ${run.error!.message}${run.error!.description ? ` (${run.error!.description})` : ''}`,
			),
	);
	if (execution.error && lines.length === 0)
		lines.push(`${execution.error.node ?? 'workflow'}: ${execution.error.message}`);
	return lines.join('\n');
}
