// Shared by the fault tests: workflows of N items through one node with Continue On Fail, and the tally that
// compares what each item reported with what the service holds afterwards.
import { appendFileSync } from 'node:fs';

import type { FaultKind, RandomFaults } from '../../sandbox/faults';
import type { ExecutionSummary } from '../harness/n8n';

type Json = Record<string, any>;

/**
 * Items per run: 1,000 for the report (`npm run faults`), the figure the fault tallies were asked for; `npm test`
 * runs them with 250 (scripts/test.mjs sets FAULT_ITEMS), the same seeds and fault kinds, to stay well inside CI's
 * 90 minutes (at 1,000 the four files took about 23 min of a loaded run). FAULT_ITEMS=n overrides both.
 */
export const FAULT_ITEMS = Number(process.env.FAULT_ITEMS ?? 1000);

/**
 * Slow answers past the timeout: the node under test gets a 2 s Timeout, and a few writes are applied but
 * answered only after 3 s. Rare (each costs seconds) among the other faults, which stay at rate 6%.
 */
export const SLOW = { timeoutSeconds: 2, delayMs: 3000, weight: 0.25 };
/** The node parameter that sets the Timeout in the workflows under test. */
export const requestOptions = { timeout: SLOW.timeoutSeconds };

export const FAULT_KINDS: FaultKind[] = [
	'429',
	'500',
	'503',
	'drop-before',
	'drop-after',
	'slow-answer',
];

/**
 * The sandbox's seeded schedule for one stage. `slow: true` adds writes the service applies only after the
 * node's Timeout ended (the request held back before it is handled), as rare as the slow answers.
 */
export function randomFaults(seed: number, options: { slow?: boolean } = {}): RandomFaults {
	return {
		rate: 0.06,
		seed,
		kinds: options.slow ? [...FAULT_KINDS, 'slow'] : FAULT_KINDS,
		delayMs: SLOW.delayMs,
		weights: { 'slow-answer': SLOW.weight, ...(options.slow ? { slow: SLOW.weight } : {}) },
	};
}

/** How long a `slow` write may still be on its way after a stage's workflow ended. */
export const SLOW_WRITE_MS = SLOW.delayMs;

/** "12.3 s": wall time of a stage, printed with its tally so the cost of a run is visible. */
export const since = (started: number) => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** How many error items are about a timeout (a sign the slow answers were met, and reported by index). */
export const timeoutErrors = (errors: Json[]) =>
	errors.filter((e) => /did not answer within the timeout/.test(String(e.error))).length;

export type Report = 'ok' | 'failed' | 'missing';

/** What one node's main output says about each of its input items (via pairedItem), in input order. */
export function reportsByIndex(
	execution: ExecutionSummary,
	node: string,
	inputCount: number,
): { reports: Report[]; outputs: Json[]; errors: Json[] } {
	const runs = ((execution.data.resultData as Json)?.runData?.[node] ?? []) as Json[];
	const items = (runs[0]?.data?.main?.[0] ?? []) as Json[];
	const reports: Report[] = Array.from({ length: inputCount }, () => 'missing');
	const outputs: Json[] = [];
	const errors: Json[] = [];
	for (const item of items) {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const index = typeof paired === 'number' ? paired : paired?.item;
		if (typeof index !== 'number' || index < 0 || index >= inputCount)
			throw new Error(
				`${node}: an output item without a usable pairedItem: ${JSON.stringify(item.pairedItem)}`,
			);
		// Two outputs for one input would hide a duplicate: the tally counts it as reported twice.
		if (reports[index] !== 'missing') throw new Error(`${node}: item ${index} reported twice`);
		const failed = item.json?.error !== undefined;
		reports[index] = failed ? 'failed' : 'ok';
		outputs[index] = item.json;
		if (failed) errors.push({ index, ...item.json });
	}
	return { reports, outputs, errors };
}

export type Tally = {
	asked: number;
	done: number;
	reportedFailed: number;
	failedButApplied: number;
	lost: number;
	duplicated: number;
	/** Reported ok with another writer's document (or another item's): undefined where a row cannot tell. */
	wrongAdopted?: number;
	/** Applied by the service more than once for one item (also where the repeat changes nothing visible). */
	sentAgain?: number;
};

/** What a stage can tell beyond the service's final state, per item index. */
export interface Checks {
	/** True when item i's ok output names something its write did not make. */
	wrong?: (index: number) => boolean;
	/** How many times the service applied item i's write (counted where the write is handled). */
	applications?: number[];
}

/**
 * applied[i]: how many times the service shows item i's effect (0, 1, more). Done = reported ok and applied once;
 * reported failed = an error item for it (applied at most once: "may have been applied" counts as reported);
 * lost = reported ok but not applied, or not reported at all; duplicated = applied more than once.
 */
export function tally(
	reports: Report[],
	applied: number[],
	checks: Checks = {},
): Tally & {
	lostIndexes: number[];
	duplicatedIndexes: number[];
	wrongIndexes: number[];
	sentAgainIndexes: number[];
} {
	const wrongIndexes = checks.wrong
		? reports.flatMap((report, i) => (report === 'ok' && checks.wrong!(i) ? [i] : []))
		: [];
	const sentAgainIndexes = checks.applications
		? reports.flatMap((_, i) => ((checks.applications![i] ?? 0) > 1 ? [i] : []))
		: [];
	const result = {
		asked: reports.length,
		done: 0,
		reportedFailed: 0,
		failedButApplied: 0,
		lost: 0,
		duplicated: 0,
		...(checks.wrong ? { wrongAdopted: wrongIndexes.length } : {}),
		...(checks.applications ? { sentAgain: sentAgainIndexes.length } : {}),
		lostIndexes: [] as number[],
		duplicatedIndexes: [] as number[],
		wrongIndexes,
		sentAgainIndexes,
	};
	reports.forEach((report, i) => {
		if (applied[i] > 1) {
			result.duplicated++;
			result.duplicatedIndexes.push(i);
		} else if (report === 'missing' || (report === 'ok' && applied[i] === 0)) {
			result.lost++;
			result.lostIndexes.push(i);
		} else if (report === 'ok') result.done++;
		else {
			result.reportedFailed++;
			if (applied[i] === 1) result.failedButApplied++;
		}
	});
	return result;
}

export function printTally(label: string, t: Tally, extra = '') {
	// `npm run faults` collects every tally of a run into test/fault-report.md (scripts/fault-report.ts).
	if (process.env.FAULT_TALLY_FILE)
		appendFileSync(
			process.env.FAULT_TALLY_FILE,
			`${JSON.stringify({
				operation: label,
				asked: t.asked,
				done: t.done,
				reportedFailed: t.reportedFailed,
				failedButApplied: t.failedButApplied,
				lost: t.lost,
				duplicated: t.duplicated,
				wrongAdopted: t.wrongAdopted,
				sentAgain: t.sentAgain,
			})}\n`,
		);
	const measured = (value: number | undefined) => (value === undefined ? 'not measured' : value);
	console.log(
		`${label}: asked ${t.asked} · done ${t.done} · reported failed ${t.reportedFailed} (of which applied once: ${t.failedButApplied}) · lost ${t.lost} · duplicated ${t.duplicated} · wrong item adopted ${measured(t.wrongAdopted)} · sent again after applied ${measured(t.sentAgain)}${extra ? ` · ${extra}` : ''}`,
	);
}

/** Every error item names its item index, a message and (for API failures) a description. */
export function errorsAreClear(errors: Json[]): string[] {
	return errors
		.filter((e) => typeof e.error !== 'string' || e.error.length === 0)
		.map((e) => `item ${e.index}: ${JSON.stringify(e)}`);
}

/** A linear workflow Manual Trigger → nodes…, the last (the node under test) with Continue On Fail. */
export function linearWorkflow(
	name: string,
	nodes: Array<{
		name: string;
		type: string;
		typeVersion: number;
		parameters: Json;
		credentials?: Json;
		onError?: string;
	}>,
) {
	const all = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		...nodes,
	].map((node, i) => ({
		id: `7f000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
		position: [i * 220, 0],
		...node,
	}));
	const connections = Object.fromEntries(
		all
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	return { name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

/** A Code node that outputs the given JSON items. */
export function itemsNode(items: Json[]) {
	return {
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
	};
}
