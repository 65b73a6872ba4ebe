// What n8n's database binary store costs in memory, apart from n8n: the steps of n8n 2.41's DatabaseManager
// (`packages/cli/src/binary-data/database.manager.ts`) with the `sqlite3` module n8n ships, on one buffer.
// Peak RSS growth of each step, in a bare Node.js process. Not part of `npm run bench`; the queue-mode section
// cites it. Usage (after the e2e tier's n8n is installed):
//   node --expose-gc scripts/bench/database-store-cost.cjs [MiB, default 256]
const { join } = require('node:path');
const { rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { Readable } = require('node:stream');

const runtime = join(__dirname, '../../test/e2e/runtime/node_modules');
const sqlite3 = require(join(runtime, 'sqlite3'));
const axios = require(join(runtime, 'axios'));
const FormData = require(join(runtime, 'form-data'));
const { spawn } = require('node:child_process');

const MB = 1024 * 1024;
const size = Number(process.argv[2] ?? 256) * MB;
const file = join(tmpdir(), `database-store-cost-${process.pid}.sqlite`);
const rss = () => process.memoryUsage().rss;
let peak = 0;
const timer = setInterval(() => {
	peak = Math.max(peak, rss());
}, 5);
const db = new sqlite3.Database(file);
const run = (sql, params = []) =>
	new Promise((resolve, reject) =>
		db.run(sql, params, (error) => (error ? reject(error) : resolve())),
	);
const get = (sql, params = []) =>
	new Promise((resolve, reject) =>
		db.get(sql, params, (error, row) => (error ? reject(error) : resolve(row))),
	);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function step(name, work) {
	global.gc();
	await pause(50);
	const base = rss();
	peak = base;
	const out = await work();
	await pause(20);
	console.log(
		`${name}: peak RSS +${((peak - base) / MB).toFixed(0)} MiB (${((peak - base) / size).toFixed(1)}× the file)`,
	);
	return out;
}

(async () => {
	await run('PRAGMA journal_mode=WAL');
	await run('CREATE TABLE binary_data (id TEXT, data BLOB)');
	const chunks = await step(
		'the chunks of a stream (64 KiB each), kept by binaryToBuffer',
		async () => {
			const kept = [];
			for (let at = 0; at < size; at += 65536) kept.push(Buffer.alloc(65536, at & 255));
			return kept;
		},
	);
	const buffer = await step('Buffer.concat of them (binaryToBuffer)', async () =>
		Buffer.concat(chunks),
	);
	chunks.length = 0;
	await step('insert (store, copyByFilePath)', () =>
		run('INSERT INTO binary_data VALUES (?, ?)', ['x', buffer]),
	);
	const read = await step(
		'select (getAsBuffer, also under getAsStream)',
		async () => (await get('SELECT data FROM binary_data WHERE id = ?', ['x'])).data,
	);
	await step('Readable.from(buffer) (getAsStream)', async () => {
		let parts = 0;
		for await (const _ of Readable.from(read)) parts++;
		console.log(`  Readable.from gave ${parts} chunk(s) of ${read.length} bytes`);
	});
	// The upload: n8n's axios and form-data send the buffer (as getBinaryStream's stream) to a server in another
	// process, so only the sender's memory is counted.
	const sink = spawn(
		process.execPath,
		[
			'-e',
			"require('http').createServer((q, s) => { q.resume(); q.on('end', () => s.end()); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });",
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const [port] = await new Promise((resolve) =>
		sink.stdout.once('data', (data) => resolve([String(data).trim()])),
	);
	await step("sent by n8n's axios with form-data (the upload)", async () => {
		const form = new FormData();
		form.append('file', Readable.from(read), { filename: 'file.bin', knownLength: read.length });
		await axios.post(`http://127.0.0.1:${port}/`, form, {
			maxRedirects: 0,
			maxBodyLength: Infinity,
			headers: form.getHeaders(),
		});
	});
	sink.kill();
	clearInterval(timer);
	db.close();
	for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
})();
