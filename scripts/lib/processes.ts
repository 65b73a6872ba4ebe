// Child processes for the e2e harness and `npm start`, with their output in a log file so that a failed
// start can show what the process said.
//
// They stay in the caller's process group: Ctrl-C in a terminal (or a CI runner killing the group) reaches
// them directly. That matters under Jest, whose test files get a copy of `process` on which signal and exit
// listeners never fire, so nothing registered here could clean up after an interrupted run.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export type ManagedProcess = {
	name: string;
	pid: number;
	logFile: string;
	/** Resolves with the exit code (or signal) when the process ends. */
	exited: Promise<string>;
	isRunning(): boolean;
	/** SIGTERM (n8n then stops its task runner), SIGKILL after 10 s. */
	stop(): Promise<void>;
};

const running = new Set<ManagedProcess>();

/** Stops every process started here that is still running: the safety net for a test that forgot stop(). */
export async function stopAllProcesses(): Promise<void> {
	await Promise.all([...running].map((child) => child.stop()));
}

// Outside Jest: a script that ends through process.exit or an exception takes its children along.
process.once('exit', () => {
	for (const child of running) signal(child.pid, 'SIGKILL');
});

function signal(pid: number, name: NodeJS.Signals) {
	try {
		process.kill(pid, name);
	} catch {
		// Already gone.
	}
}

export function spawnLogged(
	name: string,
	command: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; logFile: string },
): ManagedProcess {
	const fd = openSync(options.logFile, 'a');
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env,
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	// Children must not keep the caller alive (Jest would wait forever on one a failed test left behind).
	child.unref();
	if (child.pid === undefined) throw new Error(`Could not start ${name} (${command})`);
	const pid = child.pid;

	let alive = true;
	const exited = new Promise<string>((resolve) => {
		child.on('exit', (code, signalName) => {
			alive = false;
			running.delete(managed);
			resolve(signalName ?? String(code));
		});
		child.on('error', (error) => {
			alive = false;
			running.delete(managed);
			resolve(`error: ${error.message}`);
		});
	});

	const managed: ManagedProcess = {
		name,
		pid,
		logFile: options.logFile,
		exited,
		isRunning: () => alive,
		async stop() {
			if (!alive) return;
			signal(pid, 'SIGTERM');
			const timer = setTimeout(() => signal(pid, 'SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
		},
	};
	running.add(managed);
	return managed;
}

export function delay(ms: number) {
	return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

/** The end of a log, without n8n's ~250 database migration lines. */
export function tailFile(file: string, lines = 60): string {
	try {
		const all = readFileSync(file, 'utf8').trimEnd().split('\n');
		return all
			.filter((line) => !/^(Starting|Finished) migration /.test(line))
			.slice(-lines)
			.join('\n');
	} catch {
		return '(no log output)';
	}
}

/** A port that was free a moment ago on the loopback interface. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Polls `check` until it returns true. Fails early when `process` ends, with the tail of its log,
 * and after `timeoutMs` with the same tail.
 */
export async function waitUntil(
	description: string,
	check: () => Promise<boolean>,
	options: { process?: ManagedProcess; timeoutMs: number; intervalMs?: number },
): Promise<void> {
	const deadline = Date.now() + options.timeoutMs;
	for (;;) {
		if (options.process && !options.process.isRunning()) {
			const code = await options.process.exited;
			throw new Error(
				`${options.process.name} exited (${code}) before ${description}. Log ${options.process.logFile}:\n` +
					tailFile(options.process.logFile),
			);
		}
		if (await check().catch(() => false)) return;
		if (Date.now() > deadline) {
			const logInfo = options.process
				? ` Log ${options.process.logFile}:\n${tailFile(options.process.logFile)}`
				: '';
			throw new Error(
				`Timed out after ${options.timeoutMs} ms waiting for ${description}.${logInfo}`,
			);
		}
		await delay(options.intervalMs ?? 250);
	}
}
