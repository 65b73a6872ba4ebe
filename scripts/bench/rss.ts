// Peak resident memory of a process while something runs, sampled from /proc (Linux).
import { readFileSync } from 'node:fs';

export function rssBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

/** Runs `work` while sampling the RSS of `pid` every 20 ms; returns the work's result with the peak growth. */
export async function withPeakRss<T>(
	pid: number,
	work: () => Promise<T>,
): Promise<{ result: T; baseline: number; peakGrowth: number; samples: RssSample[] }> {
	const baseline = rssBytes(pid);
	const samples: RssSample[] = [{ at: Date.now(), bytes: baseline }];
	const sample = () => {
		try {
			samples.push({ at: Date.now(), bytes: rssBytes(pid) });
		} catch {
			// The process may be gone at the very end; the samples so far stand.
		}
	};
	const timer = setInterval(sample, 20);
	try {
		const result = await work();
		sample();
		const peak = Math.max(...samples.map((entry) => entry.bytes));
		return { result, baseline, peakGrowth: peak - baseline, samples };
	} finally {
		clearInterval(timer);
	}
}

export interface RssSample {
	/** Epoch milliseconds. */
	at: number;
	bytes: number;
}

/**
 * The peak over [from, to] (epoch ms, e.g. one node's run as n8n records it) above the last sample before
 * `from`: what that part of the run added, leaving out what the nodes before it took.
 */
export function growthDuring(samples: RssSample[], from: number, to: number): number {
	const before = samples.filter((entry) => entry.at <= from).at(-1) ?? samples[0];
	const during = samples.filter((entry) => entry.at > from && entry.at <= to);
	return Math.max(0, ...during.map((entry) => entry.bytes - before.bytes));
}
