// Peak resident memory and CPU time of a process while something runs, sampled from /proc (Linux).
import { readFileSync } from 'node:fs';

export function rssBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

/** CPU time (user + system, all threads) a process has used so far, in ms; Linux counts it in 10 ms ticks. */
export function cpuMs(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * How much memory this virtual machine's kernel has handed back to its host so far (virtio-balloon free page
 * reporting; the counter of this machine's kernel), or undefined elsewhere. While it hands memory back, the
 * machine's other work waits (see loopDelay in storage-transfer.ts).
 */
export function reportedKib(): number | undefined {
	try {
		return Number(readFileSync(REPORTED, 'utf8'));
	} catch {
		return undefined;
	}
}

const REPORTED = '/sys/module/page_reporting/parameters/reported_kib';

/** Runs `work` while sampling the RSS of `pid` every 20 ms; returns the work's result with the peak growth. */
export async function withPeakRss<T>(
	pid: number,
	work: () => Promise<T>,
): Promise<{ result: T; baseline: number; peakGrowth: number; samples: RssSample[] }> {
	const baseline = rssBytes(pid);
	const samples: RssSample[] = [
		{
			at: Date.now(),
			bytes: baseline,
			cpuMs: cpuMs(pid),
			reportedKib: reportedKib(),
			own: process.cpuUsage(),
		},
	];
	const sample = () => {
		try {
			samples.push({
				at: Date.now(),
				bytes: rssBytes(pid),
				cpuMs: cpuMs(pid),
				reportedKib: reportedKib(),
				own: process.cpuUsage(),
			});
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
	/** The process's CPU time so far (`cpuMs`). */
	cpuMs: number;
	/** `reportedKib()` at that moment. */
	reportedKib?: number;
	/** This process's CPU time so far (µs): the benchmark runs the sandbox, which receives and sends the bytes. */
	own: NodeJS.CpuUsage;
}

/** This process's user and system CPU time (ms) over [from, to] (epoch ms), from the samples around it. */
export function ownCpuDuring(
	samples: RssSample[],
	from: number,
	to: number,
): { userMs: number; systemMs: number } {
	const before = samples.filter((entry) => entry.at <= from).at(-1) ?? samples[0];
	const after = samples.find((entry) => entry.at >= to) ?? samples[samples.length - 1];
	return {
		userMs: (after.own.user - before.own.user) / 1000,
		systemMs: (after.own.system - before.own.system) / 1000,
	};
}

/** When (epoch ms, to the next sample) the machine handed memory back to its host. */
export function memoryReturns(samples: RssSample[]): number[] {
	return samples
		.filter((entry, i) => i > 0 && (entry.reportedKib ?? 0) > (samples[i - 1].reportedKib ?? 0))
		.map((entry) => entry.at);
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

/** CPU time the process used over [from, to] (epoch ms), from the samples around it (20 ms apart, 10 ms ticks). */
export function cpuDuring(samples: RssSample[], from: number, to: number): number {
	const before = samples.filter((entry) => entry.at <= from).at(-1) ?? samples[0];
	const after = samples.find((entry) => entry.at >= to) ?? samples[samples.length - 1];
	return after.cpuMs - before.cpuMs;
}
