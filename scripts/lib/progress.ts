// Progress of the first start's long steps, measured from what each step itself writes (its own folder, its
// own log), never from the disk's free space, which every other process on the machine also changes. Loaded by
// Node 24 as ESM (scripts) and by ts-jest as CommonJS (tests): no import.meta, no __dirname.
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of the files under `dir` (symlinks not followed); 0 while it does not exist. */
export function bytesUnder(dir: string): number {
	let total = 0;
	let entries;
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) total += bytesUnder(path);
		else if (entry.isFile()) {
			try {
				total += lstatSync(path).size;
			} catch {
				// Removed while counting (npm moves files into place).
			}
		}
	}
	return total;
}

/** `45 s`, `3 min 05 s`. */
export function duration(ms: number): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	if (seconds < 60) return `${seconds} s`;
	return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

const gigabytes = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * One progress line: how long the step has run and, when it writes a known amount, how much of it is written
 * ("1.2 GB of about 2.7 GB"). Past the expected amount it says only what is written: an estimate is never
 * shown as exceeded.
 */
export function progressLine(
	step: string,
	elapsedMs: number,
	written?: { bytes: number; expectedBytes?: number; where: string },
): string {
	const base = `  ... ${step} running for ${duration(elapsedMs)}`;
	if (!written) return base;
	const amount =
		written.expectedBytes && written.bytes <= written.expectedBytes
			? `${gigabytes(written.bytes)} of about ${gigabytes(written.expectedBytes)}`
			: gigabytes(written.bytes);
	return `${base}, ${amount} written to ${written.where}`;
}

/** The last non-empty line of a log file (its end only is read), shortened to `max` characters. */
export function lastLogLine(file: string, max = 120): string | undefined {
	let fd: number | undefined;
	try {
		const size = statSync(file).size;
		const length = Math.min(size, 8192);
		const buffer = Buffer.alloc(length);
		fd = openSync(file, 'r');
		readSync(fd, buffer, 0, length, size - length);
		const line = buffer
			.toString('utf8')
			.split('\n')
			.map((text) => text.trim())
			.filter(Boolean)
			.at(-1);
		return line && line.length > max ? `${line.slice(0, max - 1)}…` : line;
	} catch {
		return undefined;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/**
 * Calls `report(elapsedMs)` every `everyMs` until the returned function is called: no step stays silent
 * longer than that. The timer does not keep Node alive.
 */
export function heartbeat(
	everyMs: number,
	report: (elapsedMs: number) => void,
	now: () => number = Date.now,
): () => void {
	const started = now();
	const timer = setInterval(() => report(now() - started), everyMs);
	timer.unref?.();
	return () => clearInterval(timer);
}
