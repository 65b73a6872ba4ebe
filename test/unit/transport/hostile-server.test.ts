// A hostile loopback server (plain and TLS) against every transfer path that remains and the ordinary-call
// path: each case must end with the right bytes or a clear error naming the cause, never a silent wrong file,
// never a hang. Downloads go through Storage's `downloadFile` exactly as the nodes call it (main thread and
// n8n's helper), with a stand-in for n8n's filesystem store; uploads through the transport as the Upload
// operation calls it (main thread and n8n's helper); n8n's helper is n8n's own (`@n8n/backend-network`).
// Timers are driven in every case: a case that stalls ends because this test moves the clock past the node's
// Timeout, never by waiting, and no other case can meet a timer, however slowly a loaded machine runs it.
import { httpRequest } from '@n8n/backend-network/testing';
import { randomBytes } from 'node:crypto';
import {
	createReadStream,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import {
	createServer as createNetServer,
	type AddressInfo,
	type Server,
	type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { outcomeOf as writeOutcomeOf } from '../../../nodes/shared/errors/outcome';
import { downloadFile } from '../../../nodes/shared/storage/download';
import { backoff } from '../../../nodes/shared/transport/around-send';
import { apiRequest } from '../../../nodes/shared/transport/request';
import { fileBody, formBody } from '../../../nodes/shared/transport/request-types';
import { startProxy, type ProxyFixture } from './proxy-fixture';
import { driveHelperIdleTimer } from '../driven-helper-timer';
import { hangGuard } from '../hang-guard';

const TIMEOUT_S = 2;
const folder = mkdtempSync(join(tmpdir(), 'hostile-'));
const certificate = readFileSync(join(__dirname, 'fixtures/loopback-cert.pem'), 'utf8');
const key = readFileSync(join(__dirname, 'fixtures/loopback-key.pem'));
// Trusted here, but issued for `other.invalid` only: reached as localhost, only its name is wrong.
const otherName = readFileSync(join(__dirname, 'fixtures/other-name-cert.pem'), 'utf8');
const otherNameKey = readFileSync(join(__dirname, 'fixtures/other-name-key.pem'));
const defaults = tls.getCACertificates('default');
const big = randomBytes(3 * 1024 * 1024);
// More than every buffer between an upload's sender and the server holds, so it cannot be handed over whole.
const UPLOAD_BYTES = 64 * 1024 * 1024;
const uploadPath = join(folder, 'upload.bin');
/** A small upload, for the answers: the server reads all of it before it answers. */
const smallUploadPath = join(folder, 'small.bin');

type Piece =
	| string
	| Buffer
	| { stall: true }
	| { close: true }
	| { endless: true }
	/** The process held off the CPU this long (ms of wall time), as a loaded machine holds it: nothing runs meanwhile. */
	| { held: number }
	/** Forever: one byte of `text` (or all of it, `whole`) every `everyMs` of the driven clock. */
	| { trickle: string; everyMs: number; whole?: boolean };
/** What the server sends once it has read the whole request: pieces written one after another. */
type Script = Piece[];

let script: Script = [];
/** The server stops reading a request after its first bytes and never answers (an upload stall). */
let stopReading = false;
/** Requests whose first bytes the server read. */
let requestsSeen = 0;
/** Called once the server has stopped reading a request (`stopReading`). */
let onStall: (() => void) | undefined;
/** Called once the server has read a whole request and begins its script. */
let onAnswer: (() => void) | undefined;
const servers: Server[] = [];
let plainPort = 0;
let tlsPort = 0;
let otherNamePort = 0;

const open = new Set<Socket>();

function serve(socket: Socket): void {
	open.add(socket);
	socket.once('close', () => open.delete(socket));
	let request = Buffer.alloc(0);
	socket.on('error', () => undefined);
	socket.on('data', (chunk: Buffer) => {
		if (request.length === 0) requestsSeen++;
		if (stopReading) {
			socket.removeAllListeners('data');
			socket.pause();
			return void onStall?.();
		}
		request = Buffer.concat([request, chunk]);
		const end = request.indexOf('\r\n\r\n');
		const length = Number(/content-length: *(\d+)/i.exec(request.toString('latin1'))?.[1] ?? 0);
		if (end < 0 || request.length < end + 4 + length) return;
		socket.removeAllListeners('data');
		socket.resume();
		onAnswer?.();
		void (async () => {
			for (const [index, piece] of script.entries()) {
				if (socket.destroyed) return;
				if (typeof piece === 'object' && 'stall' in piece) return;
				if (typeof piece === 'object' && 'close' in piece) return void socket.destroy();
				if (typeof piece === 'object' && 'held' in piece) {
					const until = performance.now() + piece.held;
					while (performance.now() < until);
					continue;
				}
				if (typeof piece === 'object' && 'trickle' in piece) {
					for (let at = 0; !socket.destroyed; at++) {
						await new Promise((resolve) => setTimeout(resolve, piece.everyMs));
						const text = piece.whole ? piece.trickle : piece.trickle[at % piece.trickle.length];
						if (!socket.destroyed) socket.write(text);
					}
					return;
				}
				if (typeof piece === 'object' && 'endless' in piece) {
					const line = `x-filler: ${'a'.repeat(1000)}\r\n`;
					while (!socket.destroyed)
						await new Promise<void>((resolve) => socket.write(line, () => resolve()));
					return;
				}
				// Before a trickle its clock starts at once, however long the kernel takes to send this piece.
				const next = script[index + 1];
				if (typeof next === 'object' && 'trickle' in next) socket.write(piece as string | Buffer);
				else
					await new Promise<void>((resolve) =>
						socket.write(piece as string | Buffer, () => resolve()),
					);
			}
			socket.end();
		})().catch(() => undefined);
	});
}

/** How a server at an https URL fails the TLS handshake: nothing of the request can have left. */
type Handshake = 'reset' | 'stall' | 'plain HTTP';
const handshakePorts: Partial<Record<Handshake, number>> = {};
/** Called once such a server has the client's first handshake bytes. */
let onHandshake: (() => void) | undefined;

function failHandshake(kind: Handshake) {
	return (socket: Socket) => {
		open.add(socket);
		socket.once('close', () => open.delete(socket));
		socket.on('error', () => undefined);
		socket.once('data', () => {
			onHandshake?.();
			if (kind === 'reset') socket.resetAndDestroy();
			// What a web server on the port says to bytes that are not HTTP.
			else if (kind === 'plain HTTP')
				socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
		});
	};
}

// n8n's helper's socket timer too: no case can meet a wall-clock timer.
driveHelperIdleTimer();

beforeAll(async () => {
	for (const kind of ['reset', 'stall', 'plain HTTP'] as const) {
		const server = createNetServer(failHandshake(kind));
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		handshakePorts[kind] = (server.address() as AddressInfo).port;
	}
	const plain = createNetServer(serve);
	const secure = tls.createServer({ cert: certificate, key }, serve);
	const misnamed = tls.createServer({ cert: otherName, key: otherNameKey }, serve);
	for (const server of [plain, secure, misnamed]) {
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	}
	plainPort = (plain.address() as AddressInfo).port;
	tlsPort = (secure.address() as AddressInfo).port;
	otherNamePort = (misnamed.address() as AddressInfo).port;
	tls.setDefaultCACertificates([...defaults, certificate, otherName]);
	writeFileSync(uploadPath, Buffer.alloc(UPLOAD_BYTES, 7));
	writeFileSync(smallUploadPath, Buffer.alloc(16 * 1024, 7));
});
afterAll(async () => {
	tls.setDefaultCACertificates(defaults);
	for (const socket of open) socket.destroy();
	for (const server of servers) await new Promise((resolve) => server.close(resolve));
	rmSync(folder, { recursive: true, force: true });
});

// Every case on the driven clock: only a case that stalls moves it (`outcomeOf`).
beforeEach(() =>
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
	}),
);
afterEach(() => jest.useRealTimers());

/**
 * After a failure every socket the pack opened is closed: the server's side of each sees it close. Waits on
 * I/O only (the guard just ends a wait that would otherwise hang).
 */
async function expectSocketsClosed(outcome: unknown): Promise<void> {
	if (!(outcome instanceof Error)) return;
	// A server side that stopped reading would not see the close until it reads again.
	for (const socket of open) socket.resume();
	const hung = hangGuard(5000);
	while (open.size > 0 && !hung()) await new Promise((resolve) => setImmediate(resolve));
	expect(`${open.size} socket(s) left open`).toBe('0 socket(s) left open');
}

/** A case starts with no socket of an earlier one (a kept-alive read's, say) counted against it. */
function forgetOpenSockets(): void {
	for (const socket of open) socket.destroy();
	open.clear();
}

/** n8n's helpers: its real request helper, and a filesystem store that writes each chunk before the next. */
function context() {
	const stored = new Map<string, string>();
	let calls = 0;
	const ctx = {
		getNode: () => ({
			name: 'Cloud Storage',
			type: 'cloudStorage',
			typeVersion: 1,
			parameters: {},
		}),
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			name === 'requestOptions.timeout' ? TIMEOUT_S : fallback,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: async (options: never) => await httpRequest(options),
			prepareBinaryData: async (data: Readable, fileName: string, mimeType: string) => {
				const chunks: Buffer[] = [];
				for await (const chunk of data) chunks.push(Buffer.from(chunk as Buffer));
				const id = `filesystem-v2:${++calls}`;
				const path = join(folder, `stored-${calls}`);
				writeFileSync(path, Buffer.concat(chunks));
				stored.set(id, path);
				return { id, data: 'filesystem-v2', fileName, mimeType, bytes: statSync(path).size };
			},
			getBinaryPath: async (id: string) => stored.get(id)!,
		},
	};
	const bytesOf = (binary: IBinaryData) => readFileSync(stored.get(binary.id!)!);
	return { ctx: ctx as unknown as IExecuteFunctions, bytesOf };
}

/** Resolves once the server has read the whole request: a stall's clock moves only from then on. */
const answering = () => new Promise<void>((resolve) => (onAnswer = resolve));

/**
 * Lets the promise settle on I/O alone, or, for a stall, moves the driven clock past the Timeout: from the start,
 * or once `stalled` resolves (the server has begun to stall), so that no handshake races the clock.
 */
async function outcomeOf<T>(
	pending: Promise<T>,
	stalls: boolean,
	stalled?: Promise<void>,
): Promise<T | Error> {
	let outcome: { value: T } | { error: Error } | undefined;
	pending.then(
		(value) => (outcome = { value }),
		(error: Error) => (outcome = { error }),
	);
	let clockMoves = !stalled;
	void stalled?.then(() => (clockMoves = true));
	const hung = hangGuard(8000);
	for (let turn = 0; !outcome; turn++) {
		await new Promise((resolve) => setImmediate(resolve));
		// Only a case that stalls needs time to pass; the others must end without it.
		if (stalls && clockMoves && turn % 5 === 4)
			await jest.advanceTimersByTimeAsync(TIMEOUT_S * 250);
		// Only a guard against a hang: no outcome depends on it.
		if (hung())
			throw new Error(
				`hang: neither bytes nor an error (${jest.getTimerCount()} timer(s) waiting on the driven clock)`,
			);
	}
	return 'error' in outcome ? outcome.error : outcome.value;
}

const ok = (extra = '') => [`HTTP/1.1 200 OK\r\ncontent-length: 5${extra}\r\n\r\nhello`];
const FOLD = /folded|obs-fold|HTTP\/1\.1|invalid|Parse Error|header/i;

/** The outcome a case requires: these bytes, or an error whose message matches. */
type Expect =
	| { bytes: string }
	| { error: RegExp; not?: RegExp }
	| { bytesOrError: [string, RegExp] };

/**
 * Well under the Timeout: a silence limit alone never ends such a trickle. (Not just under it: each byte must
 * reach the client before the driven clock passes the Timeout, in steps of a quarter of it.)
 */
const TRICKLE_MS = (TIMEOUT_S * 1000) / 8;
/** Two headers of the same name are one field to the parser: never called the other framing header. */
const NOT_TRANSFER_ENCODING = /Transfer-Encoding/;

const cases: Array<[string, Script, Expect, { stalls?: boolean; expectedSize?: number }?]> = [
	['a plain answer', ok(), { bytes: 'hello' }],
	[
		'an obs-fold line that would cut the body',
		['HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-a: 1\r\n content-length: 2\r\n\r\nhello'],
		{ error: FOLD },
	],
	[
		'whitespace before the colon',
		['HTTP/1.1 200 OK\r\ncontent-length : 2\r\n\r\nhello'],
		{ error: FOLD },
	],
	[
		'a NUL in a header value',
		['HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-a: a\0b\r\n\r\nhello'],
		{ error: FOLD },
	],
	[
		'conflicting lengths',
		['HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 2\r\n\r\nhello'],
		{ error: /content-length|HTTP\/1\.1|Parse Error/i, not: NOT_TRANSFER_ENCODING },
	],
	[
		'the same length twice',
		['HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 5\r\n\r\nhello'],
		{ bytesOrError: ['hello', /^(?!.*Transfer-Encoding).*more than one Content-Length/] },
	],
	[
		'a chunk size that overflows',
		[
			'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffffffffffffffffff\r\nhello\r\n0\r\n\r\n',
		],
		{ error: /chunk size|broke HTTP\/1\.1/i },
	],
	[
		'an endless error body',
		[
			'HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\ncontent-length: 100000\r\n\r\nno',
			{ trickle: 'o', everyMs: TRICKLE_MS },
		],
		{ error: /Authentication failed \(401\)/ },
		{ stalls: true },
	],
	[
		'an endless head',
		['HTTP/1.1 200 OK\r\n', { trickle: 'x-a: 1\r\n', everyMs: TRICKLE_MS }],
		{ error: /did not answer within the timeout/ },
		{ stalls: true },
	],
	[
		'an endless series of slow 1xx answers',
		[{ trickle: 'HTTP/1.1 102 Processing\r\n\r\n', everyMs: TRICKLE_MS, whole: true }],
		{ error: /did not answer within the timeout/ },
		{ stalls: true },
	],
	[
		'Transfer-Encoding with Content-Length',
		[
			'HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
		],
		{ error: /Transfer-Encoding|Content-Length|HTTP\/1\.1|Parse Error/i },
	],
	[
		'several 1xx answers first',
		[
			'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n',
			...ok(),
		],
		{ bytes: 'hello' },
	],
	[
		'chunk extensions and trailers',
		[
			'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2;a=b\r\nhe\r\n3;c\r\nllo\r\n0\r\nx-trailer: 1\r\n\r\n',
		],
		{ bytes: 'hello' },
	],
	['an HTTP/1.0 answer', ['HTTP/1.0 200 OK\r\ncontent-length: 5\r\n\r\nhello'], { bytes: 'hello' }],
	[
		'a status line without reason phrase',
		['HTTP/1.1 200\r\ncontent-length: 5\r\n\r\nhello'],
		{ bytes: 'hello' },
	],
	[
		'a head in 1-byte writes',
		[...'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n', 'hello'],
		{ bytes: 'hello' },
	],
	[
		'60 KiB of headers',
		[`HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-big: ${'a'.repeat(60 * 1024)}\r\n\r\nhello`],
		{ bytesOrError: ['hello', /header/i] },
	],
	[
		'100 KiB of headers',
		[`HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-big: ${'a'.repeat(100 * 1024)}\r\n\r\nhello`],
		{ error: /header|overflow/i },
	],
	['endless headers', ['HTTP/1.1 200 OK\r\n', { endless: true }], { error: /header|overflow/i }],
	[
		'a body longer than declared',
		['HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello, and more'],
		{ bytes: 'hello' },
	],
	[
		'a close in a length-framed body',
		[
			'HTTP/1.1 200 OK\r\ncontent-length: 3145728\r\n\r\n',
			big.subarray(0, 1024 * 1024),
			{ close: true },
		],
		{ error: /cut short|closed|broke|socket|terminated|aborted|ECONNRESET/i },
	],
	[
		'a close in a chunked body',
		[
			'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n100000\r\n',
			big.subarray(0, 1000),
			{ close: true },
		],
		{ error: /cut short|closed|broke|socket|terminated|aborted|ECONNRESET/i },
	],
	[
		'neither length nor chunked, size unknown',
		['HTTP/1.1 200 OK\r\n\r\nhel'],
		{ error: /neither a Content-Length nor chunked/ },
	],
	[
		'neither length nor chunked, size known and met',
		['HTTP/1.1 200 OK\r\n\r\nhello'],
		{ bytes: 'hello' },
		{ expectedSize: 5 },
	],
	[
		'neither length nor chunked, cut before the known size',
		['HTTP/1.1 200 OK\r\n\r\nhel'],
		{ error: /cut short: 3 of 5/ },
		{ expectedSize: 5 },
	],
	[
		'a stall after the head',
		['HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789', { stall: true }],
		{ error: /no data arrived|timeout|timed out/i },
		{ stalls: true },
	],
	[
		'a stall before the head',
		[{ stall: true }],
		{ error: /did not answer within the timeout/ },
		{ stalls: true },
	],
	[
		'a redirect to another host',
		['HTTP/1.1 302 Found\r\nlocation: http://elsewhere.example/x\r\ncontent-length: 0\r\n\r\n'],
		{ error: /redirected the request to http:\/\/elsewhere\.example\/x/ },
	],
	[
		'an unrequested gzip',
		[
			Buffer.concat([
				Buffer.from(
					`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${gzipSync('hello').length}\r\n\r\n`,
				),
				gzipSync('hello'),
			]),
		],
		{ bytesOrError: ['hello', /compressed/] },
	],
];

const paths = ['main thread', 'helper'] as const;
/** n8n's helper inflates an unrequested gzip and drops its Content-Encoding: only the size tells, and the message names both causes. */
const GZIP_THROUGH_HELPER =
	/^The download of f\.bin does not match its expected size: 5 bytes arrived, \d+ were expected$/;
/** What every path says of a certificate issued for other names: the cause, and no request sent. */
const NAME_MISMATCH =
	/^The TLS certificate of localhost is issued for other names than localhost \(ERR_TLS_CERT_ALTNAME_INVALID\)$/;

describe.each([
	['plain', () => `http://127.0.0.1:${plainPort}`],
	['TLS', () => `https://localhost:${tlsPort}`],
])('over %s', (_transport, base) => {
	beforeEach(forgetOpenSockets);

	describe.each(paths)('download, %s', (via) => {
		it.each(cases)('%s', async (_case, steps, expected, options = {}) => {
			if (via === 'helper' && _case === 'an unrequested gzip')
				expected = { error: GZIP_THROUGH_HELPER };
			// Through n8n's helper a short body may also be an answer it unpacked: no "cut short" claimed.
			if (via === 'helper' && _case === 'neither length nor chunked, cut before the known size')
				expected = { error: /3 bytes arrived, 5 were expected/ };
			// A read that timed out is asked again while the driven clock keeps moving: a later attempt's TLS
			// handshake may meet it, which is named as such (nothing was sent).
			if (_transport === 'TLS' && options.stalls && 'error' in expected)
				expected = {
					error: new RegExp(
						`${expected.error.source}|the TLS handshake did not complete within the node's Timeout`,
					),
				};
			// See the same case's upload: through the own TLS socket the trickle may meet the silence limit first.
			if (_case === 'an endless error body' && via === 'main thread' && _transport === 'TLS')
				expected = {
					error:
						/Authentication failed \(401\)|did not answer within the timeout|the TLS handshake did not complete within the node's Timeout/,
				};
			script = steps;
			const before = requestsSeen;
			const { ctx, bytesOf } = context();
			const baseUrl = base();
			const outcome = await outcomeOf(
				downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
					fileName: 'f.bin',
					via,
					expectedSize: options.expectedSize,
				}),
				Boolean(options.stalls),
				answering(),
			);
			check(
				outcome instanceof Error ? outcome : bytesOf((outcome as { binary: IBinaryData }).binary),
				expected,
			);
			// An answer that breaks HTTP/1.1 is refused, not taken for a broken connection and asked again.
			if (_case === 'a chunk size that overflows') expect(requestsSeen - before).toBe(1);
			await expectSocketsClosed(outcome);
		});
	});

	describe.each(paths)('the answer to an upload, %s', (via) => {
		it.each(cases.filter(([name]) => !/neither length/.test(name)))(
			'%s',
			async (_case, steps, expected, options = {}) => {
				// Refused by the pack's parser as a download's would be; n8n's helper inflates it.
				if (_case === 'an unrequested gzip')
					expected = via === 'helper' ? { bytes: 'hello' } : { error: /HTTP\/1\.1/ };
				// A write whose answer was cut or stalled is never called a success nor repeated. Through n8n's helper a
				// stall after the head is one in the answer (the head already handed on) or, if the helper had not
				// handed it on yet, no answer at all.
				if (/^a close/.test(_case))
					expected = { error: /^The write may have been applied: the connection dropped/ };
				// Bounded either way: through its own TLS socket the upload's trickling error text sometimes goes unread
				// until the silence limit ends it (seen on Node 20; an open question, not a hang).
				if (_case === 'an endless error body' && via === 'main thread' && _transport === 'TLS')
					expected = { error: /Authentication failed \(401\)|did not answer within the timeout/ };
				// Its answer unreadable, a write is uncertain: the cause is still named, never the other framing header.
				if (_case === 'the same length twice' || _case === 'conflicting lengths')
					expected = {
						bytesOrError: [
							'hello',
							/^(?!.*Transfer-Encoding).*(more than one Content-Length|conflicting or invalid Content-Length|broke HTTP\/1\.1)/,
						],
					};
				if (via === 'helper' && _case === 'a stall after the head')
					expected = {
						error:
							/^The (write may have been applied: its answer stalled while it was read|storage API did not answer within)/,
					};
				script = steps;
				const { ctx } = context();
				const outcome = await outcomeOf(
					upload(ctx, base(), via, true),
					Boolean(options.stalls),
					answering(),
				);
				check(
					outcome instanceof Error
						? outcome
						: Buffer.from(String((outcome as { body: string }).body)),
					expected,
				);
				await expectSocketsClosed(outcome);
			},
		);
	});

	describe('an ordinary call (undici connections)', () => {
		it.each(cases.filter(([name]) => !/neither length|unrequested gzip/.test(name)))(
			'%s',
			async (_case, steps, expected, options = {}) => {
				// undici refuses a 100 Continue the request did not ask for (Node's http reads past it): a clear
				// error instead of the bytes, never a hang or a wrong answer.
				if (_case === 'several 1xx answers first')
					expected = { error: /100 Continue the request did not ask for/ };
				// undici does not tell two equal lengths from other conflicting header lines.
				if (_case === 'the same length twice')
					expected = { error: /conflicting header line/, not: NOT_TRANSFER_ENCODING };
				script = steps;
				const { ctx } = context();
				const outcome = await outcomeOf(
					apiRequest(ctx, {
						api: 'v2',
						url: `${base()}/api_v2/get_file_info`,
						method: 'POST',
						body: formBody({ file_hash: 'H4sh' }),
						answer: { as: 'text' },
						retry: { maxAttempts: 1 },
					}),
					Boolean(options.stalls),
					answering(),
				);
				check(
					outcome instanceof Error
						? outcome
						: Buffer.from(String((outcome as { body: string }).body)),
					expected,
				);
				await expectSocketsClosed(outcome);
				// The way round it is named: n8n's helper reads past an unasked 100 Continue.
				if (_case === 'several 1xx answers first')
					expect((outcome as { description?: string }).description).toMatch(
						/CLOUD_STORAGE_KEEP_ALIVE=false/,
					);
			},
		);
	});

	// A write call: through undici on a connection of its own, or through n8n's helper. Its answer cut, stalled or
	// unreadable leaves it uncertain: never called a success nor sent again.
	describe.each([
		['undici', undefined],
		["n8n's helper", 'false'],
	])('a write call (%s)', (via, keepAlive) => {
		const kept = process.env.CLOUD_STORAGE_KEEP_ALIVE;
		beforeEach(() => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
		});
		afterEach(() => {
			if (kept === undefined) delete process.env.CLOUD_STORAGE_KEEP_ALIVE;
			else process.env.CLOUD_STORAGE_KEEP_ALIVE = kept;
		});

		if (via === 'undici')
			it('several 1xx answers first, to a write with a hint: the way round follows the hint', async () => {
				script = cases.find(([name]) => name === 'several 1xx answers first')![1];
				const { ctx } = context();
				const outcome = await outcomeOf(
					apiRequest(ctx, {
						api: 'v2',
						url: `${base()}/api_v2/rename_file`,
						method: 'POST',
						body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
						write: { hint: 'Look for renamed.txt in its folder.' },
						answer: { as: 'text' },
						retry: { maxAttempts: 1 },
					}),
					false,
				);
				expect((outcome as Error).message).toMatch(/^The write may have been applied/);
				expect((outcome as { description?: string }).description).toMatch(
					/^Look for renamed\.txt in its folder\. Some servers and proxies send a 100 Continue .*CLOUD_STORAGE_KEEP_ALIVE=false/,
				);
				await expectSocketsClosed(outcome);
			});

		it.each(cases.filter(([name]) => !/neither length|unrequested gzip/.test(name)))(
			'%s',
			async (_case, steps, expected, options = {}) => {
				// undici refuses the unasked 100 Continue: the write's answer is unreadable, so its outcome is uncertain.
				if (_case === 'several 1xx answers first' && via === 'undici')
					expected = {
						error:
							/^The write may have been applied: its answer broke HTTP\/1\.1 \(HPE_UNREQUESTED_CONTINUE\)/,
					};
				if (/^a close/.test(_case))
					expected = { error: /^The write may have been applied: the connection dropped/ };
				if (_case === 'the same length twice' || _case === 'conflicting lengths')
					expected = {
						bytesOrError: [
							'hello',
							/^(?!.*Transfer-Encoding).*(more than one Content-Length|conflicting or invalid Content-Length|conflicting header line|broke HTTP\/1\.1)/,
						],
					};
				if (_case === 'a stall after the head')
					expected = {
						error:
							/^The (write may have been applied: its answer stalled while it was read|storage API did not answer within)/,
					};
				script = steps;
				const before = requestsSeen;
				const { ctx } = context();
				const outcome = await outcomeOf(
					apiRequest(ctx, {
						api: 'v2',
						url: `${base()}/api_v2/rename_file`,
						method: 'POST',
						body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
						write: {},
						answer: { as: 'text' },
						retry: { maxAttempts: 3 },
					}),
					Boolean(options.stalls),
					answering(),
				);
				check(
					outcome instanceof Error
						? outcome
						: Buffer.from(String((outcome as { body: string }).body)),
					expected,
				);
				// Sent once: whatever its answer, a write that reached the server is never sent again.
				expect(requestsSeen - before).toBe(1);
				// The way round is named as for a read, after the advice to check the current state.
				if (_case === 'several 1xx answers first' && via === 'undici')
					expect((outcome as { description?: string }).description).toMatch(
						/^The service offers no idempotency key.*Check the current state.*CLOUD_STORAGE_KEEP_ALIVE=false/,
					);
				await expectSocketsClosed(outcome);
			},
		);
	});

	// The same calls with CLOUD_STORAGE_KEEP_ALIVE=false (or n8n's SSRF protection on, or a session call): n8n's helper.
	describe("an ordinary call (n8n's helper)", () => {
		const keepAlive = process.env.CLOUD_STORAGE_KEEP_ALIVE;
		beforeEach(() => (process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false'));
		afterEach(() => {
			if (keepAlive === undefined) delete process.env.CLOUD_STORAGE_KEEP_ALIVE;
			else process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
		});

		it.each(cases.filter(([name]) => !/neither length|unrequested gzip/.test(name)))(
			'%s',
			async (_case, steps, expected, options = {}) => {
				script = steps;
				const before = requestsSeen;
				const { ctx } = context();
				const outcome = await outcomeOf(
					apiRequest(ctx, {
						api: 'v2',
						url: `${base()}/api_v2/get_file_info`,
						method: 'POST',
						body: formBody({ file_hash: 'H4sh' }),
						answer: { as: 'text' },
						retry: { maxAttempts: 1 },
					}),
					Boolean(options.stalls),
					answering(),
				);
				check(
					outcome instanceof Error
						? outcome
						: Buffer.from(String((outcome as { body: string }).body)),
					expected,
				);
				expect(requestsSeen - before).toBe(1);
				await expectSocketsClosed(outcome);
			},
		);
	});
});

// A loaded machine may hold the process off the CPU for longer than the Timeout between two reads: a case that ends
// on I/O alone still ends on its answer, never on a timer (once seen: n8n's helper's socket timer, on the wall
// clock, ended a download's attempt, whose back-off then waited on the driven clock).
describe('the process held off the CPU for longer than the Timeout', () => {
	const base = () => `http://127.0.0.1:${plainPort}`;
	beforeEach(() => {
		forgetOpenSockets();
		script = ['HTTP/1.1 200 OK\r\n', { held: TIMEOUT_S * 1000 + 200 }, { endless: true }];
	});
	const keepAlive = process.env.CLOUD_STORAGE_KEEP_ALIVE;
	afterEach(() => {
		if (keepAlive === undefined) delete process.env.CLOUD_STORAGE_KEEP_ALIVE;
		else process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
	});

	it("a download through n8n's helper ends on the endless headers", async () => {
		const before = requestsSeen;
		const { ctx } = context();
		const outcome = await outcomeOf(
			downloadFile(ctx, { baseUrl: base(), webUrl: base() }, 'H4sh', {
				fileName: 'f.bin',
				via: 'helper',
			}),
			false,
		);
		check(outcome as Error, { error: /header|overflow/i });
		expect(requestsSeen - before).toBe(1);
		await expectSocketsClosed(outcome);
	});

	it("an ordinary call through n8n's helper ends on the endless headers", async () => {
		process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';
		const { ctx } = context();
		const outcome = await outcomeOf(
			apiRequest(ctx, {
				api: 'v2',
				url: `${base()}/api_v2/get_file_info`,
				method: 'POST',
				body: formBody({ file_hash: 'H4sh' }),
				answer: { as: 'text' },
				retry: { maxAttempts: 1 },
			}),
			false,
		);
		check(outcome as Error, { error: /header|overflow/i });
		await expectSocketsClosed(outcome);
	});
});

const uploadPaths = ['main thread', 'helper'] as const;

/** An upload of the file on disk as the Upload operation sends it: from the main thread, or through n8n's helper. */
async function upload(
	ctx: IExecuteFunctions,
	baseUrl: string,
	via: (typeof uploadPaths)[number],
	small = false,
): Promise<unknown> {
	const path = small ? smallUploadPath : uploadPath;
	return await apiRequest(ctx, {
		api: 'v2',
		url: `${baseUrl}/api_v2/upload_file`,
		method: 'POST',
		write: {},
		retry: { maxAttempts: 1 },
		body: fileBody({
			fields: { folder_hash: 'F' },
			field: 'file',
			fileName: 'up.bin',
			source: {
				fileName: 'up.bin',
				mimeType: 'application/octet-stream',
				size: small ? 16 * 1024 : UPLOAD_BYTES,
				open: async () => createReadStream(path),
				// Without a path on disk the transport hands the upload to n8n's helper, as in database or S3 mode.
				path: via === 'main thread' ? path : undefined,
			},
		}),
		answer: { as: 'text' },
	});
}

/** An error as the user sees it: the cause in the message, the fix in the description, no stack in either. */
function expectUserError(outcome: unknown, message: RegExp, description: RegExp): void {
	expect(outcome).toBeInstanceOf(Error);
	const error = outcome as Error & { description?: string };
	expect(error.message).toMatch(message);
	expect(error.description).toMatch(description);
	for (const text of [error.message, error.description ?? ''])
		expect(text).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
}

describe.each([
	['plain', () => `http://127.0.0.1:${plainPort}`],
	['TLS', () => `https://localhost:${tlsPort}`],
])('an upload whose server stops reading it, over %s', (_transport, base) => {
	beforeEach(() => {
		stopReading = true;
		forgetOpenSockets();
	});
	afterEach(() => {
		stopReading = false;
		onStall = undefined;
	});

	it.each(uploadPaths)(
		'ends on the idle limit, from the %s, as a write that may have been applied',
		async (via) => {
			const { ctx } = context();
			const before = requestsSeen;
			const stalled = new Promise<void>((resolve) => (onStall = resolve));
			const outcome = await outcomeOf(upload(ctx, base(), via), true, stalled);
			// The request reached the server, which read its first bytes and then no more.
			expect(requestsSeen).toBe(before + 1);
			// Nothing says whether the service acted on the part it read: never repeated, never called a success.
			expectUserError(
				outcome,
				/may have been applied: the .*did not answer within the timeout of 2 s/,
				/did not repeat it/,
			);
			await expectSocketsClosed(outcome);
		},
	);
});

describe('a TLS certificate issued for other names than the host used', () => {
	const base = () => `https://localhost:${otherNamePort}`;
	const fix =
		/Use the host name the certificate names in the credential's URL.*refused before anything was sent/;
	let before = 0;
	beforeEach(() => {
		script = ok();
		before = requestsSeen;
	});
	// The handshake fails, so the server never reads a byte of any request.
	afterEach(() => expect(requestsSeen).toBe(before));

	it.each(paths)('a download (%s) is refused, naming the certificate', async (via) => {
		const { ctx } = context();
		const outcome = await outcomeOf(
			downloadFile(ctx, { baseUrl: base(), webUrl: base() }, 'H4sh', { fileName: 'f.bin', via }),
			false,
		);
		expectUserError(outcome, NAME_MISMATCH, fix);
	});

	it.each(uploadPaths)('an upload (%s) is refused, naming the certificate', async (via) => {
		const { ctx } = context();
		expectUserError(await outcomeOf(upload(ctx, base(), via), false), NAME_MISMATCH, fix);
	});

	it.each([
		['undici', undefined],
		["n8n's helper", 'false'],
	])('an ordinary call (%s) is refused, naming the certificate', async (_path, keepAlive) => {
		const kept = process.env.CLOUD_STORAGE_KEEP_ALIVE;
		if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
		try {
			const { ctx } = context();
			const outcome = await outcomeOf(
				apiRequest(ctx, {
					api: 'v2',
					url: `${base()}/api_v2/get_file_info`,
					method: 'POST',
					body: formBody({ file_hash: 'H4sh' }),
					retry: { maxAttempts: 3 },
				}),
				false,
			);
			expectUserError(outcome, NAME_MISMATCH, fix);
		} finally {
			if (kept === undefined) delete process.env.CLOUD_STORAGE_KEEP_ALIVE;
			else process.env.CLOUD_STORAGE_KEEP_ALIVE = kept;
		}
	});
});

describe("an unrequested gzip through n8n's helper", () => {
	it('names both causes of the other size (compressed on the way, or a broken connection) and the fix', async () => {
		const packed = gzipSync('hello, hello, hello, hello, hello');
		script = [
			Buffer.concat([
				Buffer.from(
					`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${packed.length}\r\n\r\n`,
				),
				packed,
			]),
		];
		const { ctx } = context();
		const base = `http://127.0.0.1:${plainPort}`;
		const outcome = await outcomeOf(
			downloadFile(ctx, { baseUrl: base, webUrl: base }, 'H4sh', {
				fileName: 'f.bin',
				via: 'helper',
			}),
			false,
		);
		expectUserError(
			outcome,
			new RegExp(
				`^The download of f\\.bin does not match its expected size: 33 bytes arrived, ${packed.length} were expected$`,
			),
			/connection broke.*compressed on the way although the node asked for the file as stored \(Accept-Encoding: identity\).*same sizes come back, it is the compression/,
		);
		expect((outcome as Error).message).not.toMatch(/cut short/);
	});
});

const PROXY_VARIABLES = [
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'ALL_PROXY',
	'NO_PROXY',
	'CLOUD_STORAGE_KEEP_ALIVE',
];
const PROXY_VARIANTS = PROXY_VARIABLES.flatMap((name) => [name, name.toLowerCase()]);

describe('a TLS handshake that does not complete', () => {
	beforeEach(forgetOpenSockets);
	const keepAlive = process.env.CLOUD_STORAGE_KEEP_ALIVE;
	afterEach(() => {
		onHandshake = undefined;
		if (keepAlive === undefined) delete process.env.CLOUD_STORAGE_KEEP_ALIVE;
		else process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
	});

	/** What each failure is called on every path: the cause in words, no OpenSSL text, no source path. */
	const said: Record<Handshake, { message: RegExp; description: RegExp }> = {
		reset: {
			// A read is asked again, and the last attempt's handshake may meet the driven clock: both say nothing was sent.
			message:
				/^Could not reach https:\/\/localhost:\d+\S*: (the connection closed during the TLS handshake|the TLS handshake did not complete within the node's Timeout), (before anything|so nothing) was sent$/,
			description: /ERR_TLS_HANDSHAKE_(RESET|TIMEOUT)/,
		},
		stall: {
			message:
				/^(Could not reach https:\/\/localhost:\d+\S*: the TLS handshake did not complete within the node's Timeout|The storage API did not answer within the timeout of 2 s$)/,
			description: /./,
		},
		'plain HTTP': {
			message: /^The server at localhost:\d+ does not speak TLS \(ERR_SSL_WRONG_VERSION_NUMBER\)$/,
			description: /is the URL in the credential http:\/\/.*refused before anything was sent/i,
		},
	};
	const kinds: Handshake[] = ['reset', 'stall', 'plain HTTP'];
	const run = async (kind: Handshake, pending: (base: string) => Promise<unknown>) => {
		const handshake = new Promise<void>((resolve) => (onHandshake = resolve));
		const before = requestsSeen;
		const outcome = await outcomeOf(
			pending(`https://localhost:${handshakePorts[kind]}`),
			true,
			handshake,
		);
		expect(requestsSeen).toBe(before);
		for (const text of [
			(outcome as Error).message,
			(outcome as { description?: string }).description,
		])
			expect(text).not.toMatch(/deps\/openssl|SSL routines|\(EPROTO\)|\n\s+at /);
		await expectSocketsClosed(outcome);
		return outcome;
	};

	describe.each(kinds)('%s', (kind) => {
		it.each(paths)('a download (%s) names it', async (via) => {
			const { ctx } = context();
			const outcome = await run(kind, (base) =>
				downloadFile(ctx, { baseUrl: base, webUrl: base }, 'H4sh', { fileName: 'f.bin', via }),
			);
			expectUserError(outcome, said[kind].message, said[kind].description);
		});

		it.each([
			['undici', undefined],
			["n8n's helper", 'false'],
		])('an ordinary call (%s) names it', async (_path, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			const outcome = await run(kind, (base) =>
				apiRequest(ctx, {
					api: 'v2',
					url: `${base}/api_v2/get_file_info`,
					method: 'POST',
					body: formBody({ file_hash: 'H4sh' }),
					// Once: a second attempt's handshake would meet the driven clock.
					retry: { maxAttempts: 1 },
				}),
			);
			expectUserError(outcome, said[kind].message, said[kind].description);
		});

		// A write on undici's connection of its own or through n8n's helper: the handshake that never completed sent
		// nothing.
		it.each([
			['undici', undefined],
			["n8n's helper", 'false'],
		])('a write call (%s) is reported as not sent', async (_path, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			const outcome = await run(kind, (base) =>
				apiRequest(ctx, {
					api: 'v2',
					url: `${base}/api_v2/rename_file`,
					method: 'POST',
					body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
					write: {},
					retry: { maxAttempts: 1 },
				}),
			);
			expectUserError(outcome, said[kind].message, said[kind].description);
			expect((outcome as Error).message).not.toMatch(/may (or may not )?have been applied/);
			expect(writeOutcomeOf(outcome)).toBe('not-applied');
		});

		it.each(uploadPaths)('an upload (%s) is reported as not sent', async (via) => {
			const { ctx } = context();
			const outcome = await run(kind, (base) => upload(ctx, base, via, true));
			expectUserError(outcome, said[kind].message, said[kind].description);
			expect((outcome as Error).message).not.toMatch(/may (or may not )?have been applied/);
			expect(writeOutcomeOf(outcome)).toBe('not-applied');
		});
	});

	// Behind a proxy the handshake with the service runs inside the CONNECT tunnel, after the proxy answered: it
	// still comes before any byte of the request, on every path a write can take through a proxy.
	describe.each(kinds)("%s inside a proxy's CONNECT tunnel", (kind) => {
		let proxy: ProxyFixture;
		const saved = Object.fromEntries(PROXY_VARIANTS.map((name) => [name, process.env[name]]));
		beforeAll(async () => (proxy = await startProxy()));
		afterAll(async () => await proxy.close());
		beforeEach(() => {
			for (const name of PROXY_VARIANTS) delete process.env[name];
			process.env.HTTPS_PROXY = proxy.url;
			proxy.reset();
		});
		afterEach(() => {
			for (const [name, value] of Object.entries(saved))
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
		});

		/** The write went to the proxy, which opened the tunnel; then every connection of the pack is closed. */
		const throughTunnel = async (pending: (base: string) => Promise<unknown>) => {
			const outcome = await run(kind, pending);
			expect(proxy.tunnels.map((tunnel) => tunnel.target)).toContain(
				`localhost:${handshakePorts[kind]}`,
			);
			const hung = hangGuard(5000);
			while (proxy.closed() < proxy.connections() && !hung())
				await new Promise((resolve) => setImmediate(resolve));
			expect(proxy.closed()).toBe(proxy.connections());
			expectUserError(outcome, said[kind].message, said[kind].description);
			expect((outcome as Error).message).not.toMatch(/may (or may not )?have been applied/);
			expect(writeOutcomeOf(outcome)).toBe('not-applied');
		};
		const writeCall = (ctx: IExecuteFunctions, base: string) =>
			apiRequest(ctx, {
				api: 'v2',
				url: `${base}/api_v2/rename_file`,
				method: 'POST',
				body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
				write: {},
				retry: { maxAttempts: 1 },
			});

		it.each([
			['undici', undefined],
			["n8n's helper", 'false'],
		])('a read through %s names it', async (_path, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			const outcome = await run(kind, (base) =>
				apiRequest(ctx, {
					api: 'v2',
					url: `${base}/api_v2/get_file_info`,
					method: 'POST',
					body: formBody({ file_hash: 'H4sh' }),
					retry: { maxAttempts: 1 },
				}),
			);
			expect(proxy.tunnels.map((tunnel) => tunnel.target)).toContain(
				`localhost:${handshakePorts[kind]}`,
			);
			expectUserError(outcome, said[kind].message, said[kind].description);
		});

		it.each([
			['undici', undefined],
			["n8n's helper", 'false'],
		])('a write call through %s is reported as not sent', async (_path, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			await throughTunnel((base) => writeCall(ctx, base));
		});

		// Behind a proxy an upload goes through n8n's helper, whether or not n8n's store has the file on disk.
		it.each(uploadPaths)('an upload (%s) is reported as not sent', async (via) => {
			const { ctx } = context();
			await throughTunnel((base) => upload(ctx, base, via, true));
		});

		// Nothing was sent, so the write goes again as a read would: each attempt reaches the handshake.
		if (kind === 'reset')
			it('a write call with attempts left is sent again', async () => {
				let handshakes = 0;
				onHandshake = () => handshakes++;
				// The clock stands still (no attempt may meet the Timeout on a loaded machine): no wait between attempts.
				const wait = jest.spyOn(backoff, 'wait').mockResolvedValue(undefined);
				try {
					const { ctx } = context();
					const outcome = await outcomeOf(
						apiRequest(ctx, {
							api: 'v2',
							url: `https://localhost:${handshakePorts[kind]}/api_v2/rename_file`,
							method: 'POST',
							body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
							write: {},
							retry: { maxAttempts: 3 },
						}),
						false,
					);
					expect(handshakes).toBe(3);
					expect(writeOutcomeOf(outcome)).toBe('not-applied');
					await expectSocketsClosed(outcome);
				} finally {
					wait.mockRestore();
				}
			});
	});
});

describe.each([
	['plain', 'HTTP_PROXY', () => `http://127.0.0.1:${plainPort}`],
	['TLS', 'HTTPS_PROXY', () => `https://localhost:${tlsPort}`],
])('a proxy that asks for credentials (407), over %s', (_transport, variable, base) => {
	let proxy: ProxyFixture;
	const saved = Object.fromEntries(PROXY_VARIANTS.map((name) => [name, process.env[name]]));
	beforeAll(async () => (proxy = await startProxy()));
	afterAll(async () => await proxy.close());
	beforeEach(() => {
		for (const name of PROXY_VARIANTS) delete process.env[name];
		process.env[variable] = proxy.url;
		proxy.reset();
		proxy.requireCredentials('n8n:secret');
		script = ok();
	});
	afterEach(() => {
		for (const [name, value] of Object.entries(saved))
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
	});

	const refused = async (pending: Promise<unknown>) => {
		const before = requestsSeen;
		const outcome = await outcomeOf(pending, false);
		expectUserError(
			outcome,
			/^The proxy http:\/\/127\.0\.0\.1:\d+ requires a user name and password \(407 Proxy Authentication Required\)$/,
			/HTTPS_PROXY, HTTP_PROXY or ALL_PROXY.*http:\/\/user:password@host:port.*Nothing reached the service/,
		);
		expect(requestsSeen).toBe(before);
		// Every connection the pack opened to the proxy is closed (waits on I/O; the guard ends a hang).
		const hung = hangGuard(5000);
		while (proxy.closed() < proxy.connections() && !hung())
			await new Promise((resolve) => setImmediate(resolve));
		expect(proxy.closed()).toBe(proxy.connections());
		return outcome;
	};

	it("a download through n8n's helper names the proxy", async () => {
		const { ctx } = context();
		const url = base();
		await refused(
			downloadFile(ctx, { baseUrl: url, webUrl: url }, 'H4sh', {
				fileName: 'f.bin',
				via: 'helper',
			}),
		);
	});

	it("an upload through n8n's helper names the proxy", async () => {
		const { ctx } = context();
		await refused(upload(ctx, base(), 'helper', true));
	});

	it.each([
		['undici', undefined],
		["n8n's helper", 'false'],
	])('an ordinary call through %s names the proxy', async (_path, keepAlive) => {
		if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
		const { ctx } = context();
		await refused(
			apiRequest(ctx, {
				api: 'v2',
				url: `${base()}/api_v2/get_file_info`,
				method: 'POST',
				body: formBody({ file_hash: 'H4sh' }),
			}),
		);
	});
	it.each([
		['undici', undefined],
		["n8n's helper", 'false'],
	])('a write call through %s names the proxy, as not sent', async (_path, keepAlive) => {
		if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
		const { ctx } = context();
		const outcome = await refused(
			apiRequest(ctx, {
				api: 'v2',
				url: `${base()}/api_v2/rename_file`,
				method: 'POST',
				body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
				write: {},
			}),
		);
		expect(writeOutcomeOf(outcome)).toBe('not-applied');
	});
});

// The request goes through the tunnel only once the proxy opened it: a request whose CONNECT is never answered sent
// nothing, on every path a request takes through a proxy. The proxy is named, and had the whole Timeout: asked once.
describe('a proxy that never answers CONNECT', () => {
	let proxy: ProxyFixture;
	const saved = Object.fromEntries(PROXY_VARIANTS.map((name) => [name, process.env[name]]));
	beforeAll(async () => (proxy = await startProxy()));
	afterAll(async () => await proxy.close());
	beforeEach(() => {
		for (const name of PROXY_VARIANTS) delete process.env[name];
		process.env.HTTPS_PROXY = proxy.url;
		proxy.reset();
	});
	afterEach(() => {
		for (const [name, value] of Object.entries(saved))
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
	});

	const unanswered = async (pending: (base: string) => Promise<unknown>, write = true) => {
		const held = new Promise<void>((resolve) => proxy.stall(true, resolve));
		const before = requestsSeen;
		const outcome = await outcomeOf(pending(`https://localhost:${tlsPort}`), true, held);
		expect(requestsSeen).toBe(before);
		expectUserError(
			outcome,
			/^The proxy http:\/\/127\.0\.0\.1:\d+ did not open the connection to localhost:\d+ within the node's Timeout$/,
			/HTTPS_PROXY, HTTP_PROXY or ALL_PROXY.*Nothing reached the service\.$/,
		);
		expect(writeOutcomeOf(outcome)).toBe(write ? 'not-applied' : undefined);
		expect(proxy.tunnels).toHaveLength(1);
		const hung = hangGuard(5000);
		while (proxy.closed() < proxy.connections() && !hung())
			await new Promise((resolve) => setImmediate(resolve));
		expect(proxy.closed()).toBe(proxy.connections());
	};

	it.each([
		['undici', undefined],
		["n8n's helper", 'false'],
	])(
		'a write call through %s is reported as not sent, naming the proxy',
		async (_path, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			await unanswered((base) =>
				apiRequest(ctx, {
					api: 'v2',
					url: `${base}/api_v2/rename_file`,
					method: 'POST',
					body: formBody({ file_hash: 'H4sh', name: 'renamed.txt' }),
					write: {},
					retry: { maxAttempts: 1 },
				}),
			);
		},
	);

	it.each(uploadPaths)('an upload (%s) is reported as not sent, naming the proxy', async (via) => {
		const { ctx } = context();
		await unanswered((base) => upload(ctx, base, via, true));
	});

	it.each([
		['undici', 'json', undefined],
		['undici', 'text', undefined],
		["n8n's helper", 'json', 'false'],
		["n8n's helper", 'text', 'false'],
	] as const)(
		'a read call through %s (%s answer) names the proxy, asked once',
		async (_path, as, keepAlive) => {
			if (keepAlive) process.env.CLOUD_STORAGE_KEEP_ALIVE = keepAlive;
			const { ctx } = context();
			await unanswered(
				(base) =>
					apiRequest(ctx, {
						api: 'v2',
						url: `${base}/api_v2/get_file_info`,
						method: 'POST',
						body: formBody({ file_hash: 'H4sh' }),
						answer: { as },
						retry: { maxAttempts: 3 },
					}),
				false,
			);
		},
	);

	it("a download through n8n's helper names the proxy, asked once", async () => {
		const { ctx } = context();
		await unanswered(
			(base) =>
				downloadFile(ctx, { baseUrl: base, webUrl: base }, 'H4sh', {
					fileName: 'f.bin',
					via: 'helper',
				}),
			false,
		);
	});
});

function check(outcome: Error | Buffer, expected: Expect): void {
	if ('bytes' in expected) {
		if (outcome instanceof Error) throw outcome;
		expect(outcome.toString()).toBe(expected.bytes);
	} else if ('error' in expected) {
		expect(outcome).toBeInstanceOf(Error);
		expect((outcome as Error).message).toMatch(expected.error);
		if (expected.not) expect((outcome as Error).message).not.toMatch(expected.not);
	} else if (outcome instanceof Error) {
		expect(outcome.message).toMatch(expected.bytesOrError[1]);
	} else {
		expect(outcome.toString()).toBe(expected.bytesOrError[0]);
	}
}
