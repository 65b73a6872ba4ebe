// A bare Node.js upload or download of one file, run as its own process by the transfer benchmark, to show
// where the ceiling of a Node.js process lies: with an empty heap, and holding a live heap as large as
// n8n's main process. Every chunk read from a socket or file is a fresh buffer counted as external memory;
// every ~64 MiB of it makes V8 run a full mark-compact, whose cost grows with the live heap.
// Prints the milliseconds taken.
// Usage: node plain-transfer.ts download <url> <form body> <output file> <heap MiB>
//        node plain-transfer.ts upload <url> <form body> <input file> <heap MiB>
import { createReadStream, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { basename } from 'node:path';
import FormData from 'form-data';

const [direction, url, body, file, heapMb] = process.argv.slice(2);

/** Small objects, like a server's caches and loaded code, until the heap holds about `mb` MiB. */
function holdHeap(mb: number): unknown[] {
	const held: unknown[] = [];
	const perObject = 140;
	for (let i = 0; i < (mb * 1024 * 1024) / perObject; i++)
		held.push({ id: i, name: `n${i}`, tags: [i] });
	return held;
}

async function download(): Promise<void> {
	const response = await new Promise<IncomingMessage>((resolve, reject) => {
		const req = request(
			url,
			{ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
			resolve,
		);
		req.on('error', reject);
		req.end(body);
	});
	await writeFile(file, response);
}

async function upload(): Promise<void> {
	const form = new FormData();
	for (const [name, value] of new URLSearchParams(body)) form.append(name, value);
	form.append('file', createReadStream(file, { highWaterMark: 1024 * 1024 }), {
		filename: basename(file),
		knownLength: statSync(file).size,
	});
	const response = await new Promise<IncomingMessage>((resolve, reject) => {
		const req = request(
			url,
			{ method: 'POST', headers: { ...form.getHeaders(), 'content-length': form.getLengthSync() } },
			resolve,
		);
		req.on('error', reject);
		form.pipe(req);
	});
	if (response.statusCode !== 200) throw new Error(`upload answered ${response.statusCode}`);
	response.resume();
}

const held = holdHeap(Number(heapMb));
const started = performance.now();
await (direction === 'upload' ? upload() : download());
process.stdout.write(`${Math.round(performance.now() - started)} ${held.length}\n`);
