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
): Promise<{ result: T; baseline: number; peakGrowth: number }> {
	const baseline = rssBytes(pid);
	let peak = baseline;
	const timer = setInterval(() => {
		try {
			peak = Math.max(peak, rssBytes(pid));
		} catch {
			// The process may be gone at the very end; the peak so far stands.
		}
	}, 20);
	try {
		const result = await work();
		peak = Math.max(peak, rssBytes(pid));
		return { result, baseline, peakGrowth: peak - baseline };
	} finally {
		clearInterval(timer);
	}
}
