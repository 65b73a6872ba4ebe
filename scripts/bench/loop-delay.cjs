// Preloaded into n8n (NODE_OPTIONS=--require) by the transfer benchmark: measures how late the main event
// loop runs a 10 ms timer, the same quantity perf_hooks.monitorEventLoopDelay samples, but kept with its
// wall-clock time so the benchmark can take the maximum and p99 over exactly one node's transfer.
// Writes "<epoch ms> <delay ms>" lines to $BENCH_LOOP_DELAY_DIR/loop-<pid>.log (one file per process, since
// n8n's child processes inherit NODE_OPTIONS). CommonJS, so --require loads it before n8n itself.
// Node also preloads it into every worker thread, under the same pid and file: a 300 ms busy loop in a worker
// showed up as a 300 ms "main loop" delay. A transfer thread is busy by design and stalls nothing else, so
// only the main thread measures.
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.BENCH_LOOP_DELAY_DIR;
if (dir && isMainThread) {
	const file = join(dir, `loop-${process.pid}.log`);
	const INTERVAL_MS = 10;
	let lines = [];
	let expected = performance.now() + INTERVAL_MS;
	const tick = setInterval(() => {
		const now = performance.now();
		lines.push(`${Math.round(performance.timeOrigin + now)} ${(now - expected).toFixed(1)}`);
		expected = now + INTERVAL_MS;
	}, INTERVAL_MS);
	tick.unref();
	const flush = () => {
		if (lines.length === 0) return;
		appendFileSync(file, `${lines.join('\n')}\n`);
		lines = [];
	};
	setInterval(flush, 500).unref();
	process.on('exit', flush);
}
