// Pieces of the queue-mode load run (queue-load.test.ts): how each item of a write is judged against what the
// service holds afterwards, the executions lister n8n pages by 100, the worker memory sampler and the report
// section at the end of test/crash-report.md.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

import type { Report } from '../faults/tally';
import type { N8nInstance } from './n8n';

type Json = Record<string, any>;

export type Verdict = {
	asked: number;
	done: number;
	/** Error items whose outcome is "unknown": the write may have been applied (0 or 1 times, both fine). */
	mayHaveBeenApplied: number;
	/** Other error items (not applied, or reads that failed after their retries). */
	reportedFailed: number;
	/** Error items saying "not-applied" for a write the service holds: a wrong outcome. */
	misreported: number;
	lost: number;
	duplicated: number;
	problems: string[];
};

export const emptyVerdict = (): Verdict => ({
	asked: 0,
	done: 0,
	mayHaveBeenApplied: 0,
	reportedFailed: 0,
	misreported: 0,
	lost: 0,
	duplicated: 0,
	problems: [],
});

/**
 * One item: `report` from the node's output (via pairedItem), `outcome` its `outcome` field, `applied` how many
 * times the service shows its effect (for reads: 1 when the output is right, 0 when wrong). Lost = no report,
 * or reported done without the effect; duplicated = the effect more than once.
 */
export function judge(
	verdict: Verdict,
	label: string,
	report: Report,
	outcome: unknown,
	applied: number,
): void {
	verdict.asked++;
	if (applied > 1) {
		verdict.duplicated++;
		verdict.problems.push(`${label}: applied ${applied} times`);
	} else if (report === 'missing' || (report === 'ok' && applied === 0)) {
		verdict.lost++;
		verdict.problems.push(
			`${label}: ${report === 'missing' ? 'no output item' : 'done but not applied'}`,
		);
	} else if (report === 'ok') verdict.done++;
	else if (outcome === 'unknown') verdict.mayHaveBeenApplied++;
	else {
		verdict.reportedFailed++;
		if (outcome === 'not-applied' && applied === 1) {
			verdict.misreported++;
			verdict.problems.push(`${label}: reported not-applied, but applied`);
		}
	}
}

/** Every execution of a workflow (n8n's list answers at most 100 per page; more is refused, not cut). */
export async function executionsOf(n8n: N8nInstance, workflowId: string): Promise<Json[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await n8n.client.request<Json>('GET', `/rest/executions?limit=100&filter=${filter}`);
	const results = list.results as Json[];
	if (results.length >= 100)
		throw new Error(`workflow ${workflowId} has 100 or more executions: the count would be cut`);
	return results;
}

function status(pid: number): Record<string, string> {
	try {
		return Object.fromEntries(
			readFileSync(`/proc/${pid}/status`, 'utf8')
				.split('\n')
				.map((line) => line.split(/:\s+/, 2)),
		);
	} catch {
		return {};
	}
}

const kib = (value: string | undefined) => Number(/^(\d+)/.exec(value ?? '')?.[1] ?? 0);

function childrenOf(pid: number): number[] {
	const children: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The parent pid is the 2nd field after the command in parentheses (which may hold spaces).
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
				children.push(Number(entry));
		} catch {
			// Gone meanwhile.
		}
	}
	return children;
}

export type WorkerMemory = { name: string; peakKib: number; runnerPeakKib: number };

/**
 * Samples each worker's resident memory every `intervalMs` (VmRSS of the worker and of its task runner
 * children); `stop()` also reads the worker's own high-water mark (VmHWM), the exact peak of its process.
 */
export function sampleWorkerMemory(n8n: N8nInstance, intervalMs = 1000) {
	const peaks = n8n.workers.map((worker) => ({ name: worker.name, rss: 0, runner: 0 }));
	const sample = () =>
		n8n.workers.forEach((worker, i) => {
			peaks[i].rss = Math.max(peaks[i].rss, kib(status(worker.pid).VmRSS));
			for (const child of childrenOf(worker.pid))
				peaks[i].runner = Math.max(peaks[i].runner, kib(status(child).VmRSS));
		});
	sample();
	const timer = setInterval(sample, intervalMs);
	return {
		stop(): WorkerMemory[] {
			clearInterval(timer);
			sample();
			return n8n.workers.map((worker, i) => ({
				name: worker.name,
				peakKib: Math.max(peaks[i].rss, kib(status(worker.pid).VmHWM)),
				runnerPeakKib: peaks[i].runner,
			}));
		},
	};
}

export const mib = (kibibytes: number) => `${Math.round(kibibytes / 1024)} MiB`;

const SECTION = '## Queue-mode load run';

/** Replaces (or adds) the section at the end of test/crash-report.md; the rest of the file is left as it is. */
export function writeLoadSection(file: string, lines: string[]): void {
	const text = readFileSync(file, 'utf8');
	const at = text.indexOf(`\n${SECTION}`);
	const head = (at < 0 ? text : text.slice(0, at)).trimEnd();
	writeFileSync(file, `${head}\n\n${SECTION}\n\n${lines.join('\n')}\n`);
}

/**
 * Resolves once the sandbox handles no request: a `slow` write (held back past the node's Timeout, then applied)
 * lands after its workflow ended, so the service is read only after it. A request is in flight from the moment the
 * sandbox logs it until it has a status or ended without one (dropped, aborted). Past `timeoutMs` the requests
 * still open are named.
 */
export async function sandboxIdle(
	requests: () => Array<{ seq: number; path: string; status: number | null; outcome: string }>,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const open = requests().filter(
			(entry) => entry.status === null && entry.outcome === 'answered',
		);
		if (!open.length) return;
		if (Date.now() > deadline)
			throw new Error(
				`the sandbox still handled ${open.length} request(s) ${timeoutMs / 1000} s after the load: ` +
					open.map((entry) => `#${entry.seq} ${entry.path}`).join(', '),
			);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
