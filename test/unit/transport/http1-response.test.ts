// The HTTP/1.1 answer reader of the main-thread download, and the buffers it reads into, without a socket.
import { randomBytes } from 'node:crypto';

import { ResponseParser } from '../../../nodes/shared/transport/http1-response';
import { ReadRegions } from '../../../nodes/shared/transport/read-regions';

const body = randomBytes(3000);

function feed(answer: Buffer, step: number): { parser: ResponseParser; bytes: Buffer } {
	const parser = new ResponseParser();
	const parts: Buffer[] = [];
	for (let at = 0; at < answer.length && !parser.done; at += step) {
		// Each read in memory that is overwritten afterwards, as a reused buffer is.
		const read = Buffer.from(answer.subarray(at, at + step));
		for (const slice of parser.push(read)) parts.push(Buffer.from(slice));
		read.fill(0);
	}
	return { parser, bytes: Buffer.concat(parts) };
}

const chunkedAnswer = Buffer.concat([
	Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Id: 7\r\n\r\n'),
	Buffer.from('3e8;name=value\r\n'),
	body.subarray(0, 1000),
	Buffer.from('\r\n7D0\r\n'),
	body.subarray(1000),
	Buffer.from('\r\n0\r\nx-trailer: 1\r\n\r\n'),
]);

it.each([1, 2, 3, 7, 64, 4096])(
	'reads a chunked answer split into reads of %i bytes, whatever falls where',
	(step) => {
		const { parser, bytes } = feed(chunkedAnswer, step);
		expect(parser.done).toBe(true);
		expect(parser.head).toEqual({
			status: 200,
			headers: { 'transfer-encoding': 'chunked', 'x-id': '7' },
		});
		expect(bytes.equals(body)).toBe(true);
	},
);

it('reads exactly Content-Length bytes and ignores what follows', () => {
	const answer = Buffer.concat([
		Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`),
		body,
		Buffer.from('HTTP/1.1 200 OK\r\n'),
	]);
	const { parser, bytes } = feed(answer, 5);
	expect(parser.done).toBe(true);
	expect(bytes.equals(body)).toBe(true);
});

it('knows an answer without a body at once: 204, 304, Content-Length 0', () => {
	for (const head of [
		'HTTP/1.1 204 No Content\r\n\r\n',
		'HTTP/1.1 304 Not Modified\r\ncontent-length: 10\r\n\r\n',
		'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n',
	]) {
		const { parser, bytes } = feed(Buffer.from(head), 1);
		expect(parser.done).toBe(true);
		expect(bytes.length).toBe(0);
	}
});

it('reads a body without length until the connection ends, and calls an earlier end a cut', () => {
	const open = new ResponseParser();
	open.push(Buffer.from('HTTP/1.0 200 OK\r\n\r\nabc'));
	expect(open.done).toBe(false);
	open.end();
	expect(open.done).toBe(true);

	const counted = new ResponseParser();
	counted.push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nabc'));
	expect(() => counted.end()).toThrow(expect.objectContaining({ code: 'ECONNRESET' }));
	const chunked = new ResponseParser();
	chunked.push(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n'));
	expect(() => chunked.end()).toThrow(expect.objectContaining({ code: 'ECONNRESET' }));
	expect(() => new ResponseParser().end()).toThrow(expect.objectContaining({ code: 'ECONNRESET' }));
});

it('refuses headers beyond the limit and a chunk longer than announced', () => {
	const parser = new ResponseParser(1024);
	expect(() => parser.push(Buffer.from(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(2000)}`))).toThrow(
		expect.objectContaining({ code: 'HPE_HEADER_OVERFLOW' }),
	);
	const long = new ResponseParser();
	expect(() =>
		long.push(
			Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n'),
		),
	).toThrow(expect.objectContaining({ code: 'HPE_INVALID' }));
});

describe('refuses header lines RFC 9112 forbids, naming the cause, before any body byte is handed out', () => {
	const refused = (head: string) => {
		const parser = new ResponseParser();
		let bytes = 0;
		try {
			for (const slice of parser.push(Buffer.from(`${head}\r\n\r\nhello`))) bytes += slice.length;
		} catch (error) {
			expect(bytes).toBe(0);
			return error as Error & { code: string };
		}
		throw new Error(`accepted: ${JSON.stringify(head)}`);
	};

	it.each([
		['a folded line (obs-fold)', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n Content-Length: 2', /folded/],
		['a tab-folded line', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\tx', /folded/],
		['whitespace before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 2', /before the colon/],
		['a tab before the colon', 'HTTP/1.1 200 OK\r\nContent-Length\t: 2', /before the colon/],
		['a NUL in a value', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: a\0b', /control character/],
		['a control character in a value', 'HTTP/1.1 200 OK\r\nX-A: a\x01b', /control character/],
		['a bare CR in a value', 'HTTP/1.1 200 OK\r\nX-A: a\rb: c', /control character/],
		['a name that is no token', 'HTTP/1.1 200 OK\r\nX A: 1', /name/],
		['a line without a colon', 'HTTP/1.1 200 OK\r\nnonsense', /colon/],
		[
			'conflicting lengths',
			'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 2',
			/Content-Length/,
		],
		[
			'conflicting lengths in one line',
			'HTTP/1.1 200 OK\r\nContent-Length: 5, 2',
			/Content-Length/,
		],
		['a signed length', 'HTTP/1.1 200 OK\r\nContent-Length: +5', /Content-Length/],
		[
			'Transfer-Encoding beside Content-Length',
			'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked',
			/Transfer-Encoding and Content-Length/,
		],
		[
			'a transfer coding other than chunked',
			'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked',
			/gzip/,
		],
		['a status line that is not HTTP/1.x', 'HTTP/2 200 OK', /status line/],
		['a status line with a short code', 'HTTP/1.1 20 OK', /status line/],
	])('%s', (_case, head, cause) => {
		const error = refused(head);
		expect(error.code).toMatch(/^HPE_/);
		expect(error.message).toMatch(cause);
	});

	it('still takes what RFC 9112 allows: no reason phrase, spaces around values, repeated equal lengths', () => {
		for (const head of [
			'HTTP/1.1 200\r\nContent-Length: 5',
			'HTTP/1.1 200 \r\nContent-Length:5',
			'HTTP/1.0 200 OK\r\nContent-Length: \t5 \r\nX-Empty:',
			'HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5',
			'HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\nX-Tab: a\tb',
		]) {
			const { parser, bytes } = feed(Buffer.from(`${head}\r\n\r\nhello`), 3);
			expect(parser.done).toBe(true);
			expect(bytes.toString()).toBe('hello');
		}
	});
});

it('never hands out memory that a slice in use still holds', () => {
	const regions = new ReadRegions();
	const held: Buffer[] = [];
	let seed = 7;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const overlaps = (a: Buffer, b: Buffer) =>
		a.buffer === b.buffer &&
		a.byteOffset < b.byteOffset + b.length &&
		b.byteOffset < a.byteOffset + a.length;
	let clashes = 0;
	for (let step = 0; step < 5_000; step++) {
		const region = regions.next();
		clashes += held.filter((slice) => overlaps(region, slice)).length;
		const length = Math.max(1, Math.min(region.length, Math.floor(random() * 200_000)));
		regions.read(region, length);
		const slice = region.subarray(0, length);
		regions.hold(slice);
		held.push(slice);
		// The consumer is done with the oldest slices now and then, as a store that writes them in turn.
		while (held.length > 0 && (regions.full || random() < 0.4)) regions.release(held.shift()!);
	}
	expect(clashes).toBe(0);
	expect(regions.spilled).toBe(0);
});
