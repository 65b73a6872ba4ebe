import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

import { cancelled, failure } from './failures';
import type { TransferJob } from './transfer-worker';

/**
 * The compiled worker next to this module (dist), or its source when run from TypeScript (tests). Node loads
 * the source as an ES module, warning each time that package.json names no module type; that warning is off.
 */
function workerScript(): { file: string; execArgv?: string[] } {
	const compiled = join(__dirname, 'transfer-worker.js');
	if (existsSync(compiled)) return { file: compiled };
	return {
		file: join(__dirname, 'transfer-worker.ts'),
		execArgv: ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON'],
	};
}

/**
 * Each socket read in the thread is a fresh buffer; V8 frees them when it collects, and by default lets about
 * 64 MiB of them pile up first, all counted in n8n's resident memory. A 1 MiB young generation collects them
 * far more often (1 GiB download alone: about 76 instead of 115 MiB of RSS growth, no slower). Capping the old
 * generation too saved a further 20 MiB in the benchmark but slowed the thread, and a cap too tight would end
 * it with an out-of-memory error.
 */
const THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 1 };

export interface TransferThread<M> {
	/** Resolves with each message in turn; rejects when the thread dies or the execution is cancelled. */
	next(): Promise<M>;
	/** Stops the thread (idempotent) and stops listening to the execution's cancel signal. */
	stop(): void;
}

/**
 * Starts the transfer thread for one job. Cancelling the execution stops the thread and rejects the pending
 * (or next) message with an abort error, which the transport reports as n8n's cancellation.
 */
export function startTransferThread<M>(job: TransferJob, cancel?: AbortSignal): TransferThread<M> {
	if (cancel?.aborted) throw cancelled();
	const script = workerScript();
	const worker = new Worker(script.file, {
		workerData: job,
		resourceLimits: THREAD_LIMITS,
		execArgv: script.execArgv,
	});
	const queue: M[] = [];
	let ended: Error | undefined;
	let waiting: { resolve: (message: M) => void; reject: (error: Error) => void } | undefined;
	let stopped = false;
	const end = (error: Error) => {
		ended ??= error;
		waiting?.reject(ended);
		waiting = undefined;
	};
	const onCancel = () => {
		void worker.terminate();
		end(cancelled());
	};
	cancel?.addEventListener('abort', onCancel, { once: true });
	worker.on('message', (message: M) => {
		if (waiting) {
			waiting.resolve(message);
			waiting = undefined;
		} else queue.push(message);
	});
	worker.once('error', (error) =>
		end(failure('UND_ERR_SOCKET', `The transfer thread failed: ${error.name}`)),
	);
	// After the last message this changes nothing; before it the thread died without answering.
	worker.once('exit', (code) =>
		end(
			stopped
				? cancelled()
				: failure(
						'UND_ERR_SOCKET',
						`The transfer thread ended (exit code ${code}) without an answer`,
					),
		),
	);
	return {
		next: async () => {
			const queued = queue.shift();
			if (queued !== undefined) return queued;
			if (ended) throw ended;
			return await new Promise<M>((resolve, reject) => {
				waiting = { resolve, reject };
			});
		},
		stop: () => {
			if (stopped) return;
			stopped = true;
			cancel?.removeEventListener('abort', onCancel);
			void worker.terminate();
		},
	};
}
