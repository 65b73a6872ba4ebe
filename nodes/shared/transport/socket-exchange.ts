import { open } from 'node:fs/promises';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { crc32 } from 'node:zlib';

import { ResponseFormatError, ResponseParser } from './http1-response';
import { ReadRegions } from './read-regions';
import { ERROR_BODY_BYTES, type RawAnswer } from './body';
import { AnswerTimeoutError, IdleLimit, idleFailure } from './timeout';
import { cancelled, failure, handshakeCode } from './failures';

/** A POST the transport sends on its own socket, authenticated (`authenticated` in request.ts). */
export interface OwnPost {
	url: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** The form fields, the credential's among them. */
	form: URLSearchParams;
	cancel?: AbortSignal;
}

/** What follows the request's head: the whole body, or (an upload of a file on disk) a writer of it. */
export interface OutgoingBody {
	contentType: string;
	length: number;
	bytes?: Buffer;
	/**
	 * Writes the body; `write` resolves once the socket has taken a chunk (only then may its buffer be filled
	 * again). Stops, without error, once `answered()`: the rest is not needed.
	 */
	send?: (write: (chunk: Buffer) => Promise<void>, answered: () => boolean) => Promise<void>;
}

/** The stored copy is read back in steps of this size, into two reused buffers. */
const CHECK_BYTES = 4 << 20;
/** A chunk smaller than this waits for the next read, unless nothing more can come before it is taken. */
const BATCH_BYTES = 512 * 1024;

/** Refuses a header that would split the request: its name or value is sent as written. */
function headerLine(name: string, value: string): string {
	if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value))
		throw failure('ERR_INVALID_CHAR', 'A request header holds a character HTTP forbids');
	return `${name}: ${value}\r\n`;
}

function requestHead(target: URL, headers: Record<string, string>, body: OutgoingBody): Buffer {
	const own = new Set([
		'accept-encoding',
		'host',
		'content-type',
		'content-length',
		'connection',
		'transfer-encoding',
	]);
	let head =
		`POST ${target.pathname}${target.search} HTTP/1.1\r\n` +
		headerLine('content-type', body.contentType) +
		headerLine('host', target.host);
	for (const [name, value] of Object.entries(headers))
		if (!own.has(name.toLowerCase())) head += headerLine(name, value);
	// A download's file as stored: the same bytes on every path, whatever the server could compress.
	head += headerLine('accept-encoding', 'identity');
	head += headerLine('content-length', String(body.length));
	// Kept alive while a body is still being written: a server that answers before the whole file has arrived
	// then reads the rest instead of closing the connection at once, which would lose its answer to the write
	// error it causes here. The socket is closed once the answer has been read.
	if (!body.send) head += 'connection: close\r\n';
	return Buffer.from(head + '\r\n', 'latin1');
}

/**
 * The body of a 2xx answer read from the socket into two reused 1 MiB buffers (`ReadRegions`). Its async
 * iterator yields slices of them, each valid only until the next is asked for; reads that arrived meanwhile
 * side by side come as one slice. The socket pauses while both buffers are in use, so the transfer runs at the
 * pace of a consumer that writes each chunk before it asks again (n8n's filesystem store) and makes no garbage
 * for n8n's big heap. Read any other way (piped, `data` events) it gives copies.
 */
export class SocketBody extends Readable {
	private queue: Buffer[] = [];
	private ended = false;
	private failed?: Error;
	private wake?: () => void;
	private reader?: AsyncGenerator<Buffer, undefined, unknown>;
	private delivered = 0;
	private limit?: { bytes: number; error: Error };
	/** CRC-32 of every byte handed out, to check afterwards that the store wrote what was read. */
	private checksum = 0;

	constructor(
		private readonly socket: Socket,
		private readonly regions: ReadRegions,
		/** A slice is no longer in use: the socket may read again if it waited for room. */
		private readonly released: () => void,
	) {
		super();
	}

	/** Bytes handed to the consumer so far. */
	get bytes(): number {
		return this.delivered;
	}

	/** Bytes that went to fresh memory because the consumer still used both reused buffers (TLS only). */
	get spilled(): number {
		return this.regions.spilled;
	}

	/** Fails the read with `error` once more than `bytes` have arrived. */
	cap(bytes: number, error: Error): void {
		this.limit = { bytes, error };
	}

	/** The socket's latest read: the consumer gets these before the socket reads again. */
	deliver(slices: Buffer[]): void {
		for (const slice of slices) {
			if (slice.length === 0) continue;
			const last = this.queue.at(-1);
			if (last?.buffer === slice.buffer && last.byteOffset + last.length === slice.byteOffset)
				this.queue[this.queue.length - 1] = Buffer.from(
					last.buffer,
					last.byteOffset,
					last.length + slice.length,
				);
			else {
				this.regions.hold(slice);
				this.queue.push(slice);
			}
		}
		this.signal();
	}

	finish(error?: Error): void {
		if (this.ended) return;
		this.ended = true;
		this.failed = error;
		this.signal();
	}

	private signal(): void {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	/** Whether to hand on the first queued slice now, or wait for more bytes to arrive beside it. */
	private ready(): boolean {
		if (this.queue.length === 0) return false;
		if (this.ended || this.queue.length > 1 || this.regions.full) return true;
		return this.queue[0].length >= BATCH_BYTES;
	}

	private async *chunks(): AsyncGenerator<Buffer, undefined, unknown> {
		try {
			for (;;) {
				// Small reads are gathered first: each chunk costs n8n's store one write, so fewer, larger ones.
				const slice = this.ready() ? this.queue.shift() : undefined;
				if (slice) {
					this.delivered += slice.length;
					if (this.limit && this.delivered > this.limit.bytes) throw this.limit.error;
					// Summed while the consumer writes it (n8n's store writes in Node's thread pool), and at the
					// latest before its buffer is read into again.
					const sum = () => {
						clearImmediate(summing);
						if (!summed) this.checksum = crc32(slice, this.checksum);
						summed = true;
					};
					let summed = false;
					const summing = setImmediate(sum);
					try {
						yield slice;
					} finally {
						sum();
					}
					// Asked for the next: the consumer is done with this one.
					this.regions.release(slice);
					this.released();
				} else if (this.ended && this.queue.length === 0) {
					if (this.failed) throw this.failed;
					return undefined;
				} else {
					await new Promise<void>((resolve) => (this.wake = resolve));
				}
			}
		} finally {
			// Stopped before the end (an error, the cap, a consumer that gave up): nothing else reads it.
			if (!this.ended || this.failed) this.socket.destroy();
		}
	}

	override [Symbol.asyncIterator](): AsyncGenerator<Buffer, undefined, unknown> {
		return this.chunks();
	}

	override _read(): void {
		this.reader ??= this.chunks();
		this.reader.next().then(
			({ value, done }) => this.push(done ? null : Buffer.from(value)),
			(error: Error) => this.destroy(error),
		);
	}

	override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
		this.socket.destroy();
		this.finish(error ?? undefined);
		callback(error);
	}

	/**
	 * Whether the file at `path` is what this body delivered: the same size and the same CRC-32 over every
	 * byte. A store that kept a slice after asking for the next (so wrote later bytes in its place, wherever
	 * that falls) fails this.
	 */
	async storedAs(path: string): Promise<boolean> {
		const file = await open(path, 'r');
		try {
			if ((await file.stat()).size !== this.delivered) return false;
			// Two buffers: the next part is read (in Node's thread pool) while this one is summed on the main
			// thread, so the check costs about one pass instead of a read and then a sum.
			const buffers = [Buffer.allocUnsafeSlow(CHECK_BYTES), Buffer.allocUnsafeSlow(CHECK_BYTES)];
			const readAt = (position: number, buffer: Buffer) =>
				file.read(buffer, 0, Math.min(buffer.length, this.delivered - position), position);
			let checksum = 0;
			let position = 0;
			let pending = this.delivered > 0 ? readAt(0, buffers[0]) : undefined;
			for (let turn = 0; pending; turn++) {
				const { bytesRead, buffer } = await pending;
				if (bytesRead === 0) return false;
				position += bytesRead;
				pending = position < this.delivered ? readAt(position, buffers[(turn + 1) % 2]) : undefined;
				checksum = crc32(buffer.subarray(0, bytesRead), checksum);
			}
			return checksum === this.checksum;
		} finally {
			await file.close();
		}
	}
}

/** The form-encoded POST of a download into n8n's filesystem store (`exchangeOnSocket`). */
export async function sendDownloadOnSocket(
	post: OwnPost,
	timeoutMs: number,
	maxResponseBytes: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	const bytes = Buffer.from(post.form.toString());
	const body = { contentType: 'application/x-www-form-urlencoded', length: bytes.length, bytes };
	return await exchangeOnSocket(post, body, 'download', timeoutMs, maxResponseBytes);
}

/**
 * One POST from n8n's main thread on a socket of its own, the pack's one HTTP/1.1 client for file transfers
 * (`transferPath`: without a proxy): the body as given (an upload's file through reused buffers), the answer read
 * into two reused buffers (Node's `onread`) and parsed strictly (`ResponseParser`). No fresh buffer per chunk,
 * so V8 never has to collect n8n's whole heap during a large transfer, and no temporary file or second copy of
 * a download. Answers as n8n's request helper does, for the transport to interpret: a download's 2xx body is a
 * `SocketBody`, any other answer comes back whole (capped one byte over `maxResponseBytes`). An answer that
 * comes while the body is still being sent stops the sending and is kept. The node's Timeout limits silence in
 * both directions (`IdleLimit`: reset by every read and every completed write); cancelling the execution
 * closes the socket.
 */
export async function exchangeOnSocket(
	{ url, headers, cancel }: Omit<OwnPost, 'form'>,
	body: OutgoingBody,
	direction: 'upload' | 'download',
	timeoutMs: number,
	maxResponseBytes: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	if (cancel?.aborted) throw cancelled();
	const target = new URL(url);
	const head = requestHead(target, headers, body);

	const regions = new ReadRegions();
	const parser = new ResponseParser();
	const https = target.protocol === 'https:';
	const host = target.hostname.replace(/^\[|\]$/g, '');
	const port = Number(target.port) || (https ? 443 : 80);
	let onRead: (bytes: Buffer) => boolean = () => true;
	const onread = {
		buffer: () => regions.next(),
		callback: (length: number, region: Buffer) => {
			regions.read(region, length);
			return onRead(region.subarray(0, length));
		},
	};
	const socket = https
		? tlsConnect({
				// Node reads a TLS socket into the `onread` buffer too (checked on Node 24); its types omit it.
				...({ onread } as object),
				host,
				port,
				servername: isIP(host) ? undefined : host,
				ALPNProtocols: ['http/1.1'],
			})
		: netConnect({ host, port, onread });
	socket.setNoDelay(true);

	// Until the handshake completes no byte of the request has left (Node holds the writes back).
	let secured = !https;
	if (https) socket.once('secureConnect', () => (secured = true));

	return await new Promise<RawAnswer | AnswerTimeoutError>((resolve, reject) => {
		let answered: SocketBody | Buffer[] | undefined;
		let paused = false;
		let wholeBytes = 0;
		let maxWholeBytes = maxResponseBytes;
		// Silence for the Timeout ends it: before the answer (a timeout the transport may retry: a server that stops
		// reading an upload, so no write completes, or that does not answer) or in its body.
		const idle = new IdleLimit(timeoutMs, () => {
			socket.destroy();
			if (answered instanceof SocketBody) answered.finish(idleFailure(timeoutMs));
			else if (!secured)
				settle(failure('ERR_TLS_HANDSHAKE_TIMEOUT', 'the TLS handshake did not complete'));
			else settle(new AnswerTimeoutError(timeoutMs));
		});
		// Bytes that keep trickling restart the silence limit: the head (1xx answers included) and an error's text
		// must each arrive within the Timeout in all. Started by the first byte of each, so a slow server's wait
		// for an upload to arrive still counts as silence only.
		let deadline: ReturnType<typeof setTimeout> | undefined;
		const within = (onExpiry: () => void) => {
			clearTimeout(deadline);
			deadline = timeoutMs > 0 ? setTimeout(onExpiry, timeoutMs) : undefined;
		};
		const onCancel = () => {
			idle.stop();
			socket.destroy();
			if (answered instanceof SocketBody) answered.finish(cancelled());
			settle(cancelled());
		};
		cancel?.addEventListener('abort', onCancel, { once: true });
		let settled = false;
		function settle(outcome: RawAnswer | AnswerTimeoutError | Error): void {
			if (settled) return;
			settled = true;
			clearTimeout(deadline);
			// A 2xx body is still to come: its silence stays limited until it ends.
			if (!(answered instanceof SocketBody)) idle.stop();
			if (!(answered instanceof SocketBody)) cancel?.removeEventListener('abort', onCancel);
			if (outcome instanceof Error && !(outcome instanceof AnswerTimeoutError)) reject(outcome);
			else resolve(outcome);
		}
		const whole = (chunks: Buffer[]) =>
			settle({
				statusCode: parser.head!.status,
				headers: parser.head!.headers,
				body: Readable.from([Buffer.concat(chunks)]),
			});
		const broken = (error: unknown) => {
			// Before the handshake completed nothing was sent: named for what it is, never a dropped connection.
			const code =
				(!secured && handshakeCode(error as Error)) ||
				(!secured && ['ECONNRESET', 'EPIPE'].includes(String((error as NodeJS.ErrnoException).code))
					? 'ERR_TLS_HANDSHAKE_RESET'
					: undefined) ||
				(error as NodeJS.ErrnoException).code ||
				(error instanceof ResponseFormatError ? error.code : 'ECONNRESET');
			// Only the code: Node's messages may quote the address. n8n would replace a message that names
			// ECONNRESET with its generic one, which no longer says that this transfer failed.
			const failed = failure(
				code,
				code === 'ECONNRESET'
					? 'the connection closed before the whole answer arrived'
					: error instanceof ResponseFormatError
						? error.message
						: `${direction} failed (${code})`,
			);
			socket.destroy();
			idle.stop();
			clearTimeout(deadline);
			if (answered instanceof SocketBody) answered.finish(failed);
			// An error status stands with what arrived of its text; a cut 2xx (an upload's) must not pass for whole.
			else if (answered && parser.head!.status >= 300) whole(answered);
			else settle(failed);
		};

		onRead = (bytes) => {
			idle.touch();
			let slices: Buffer[];
			try {
				slices = parser.push(bytes);
			} catch (error) {
				broken(error);
				return false;
			}
			if (!parser.head) {
				if (!deadline) within(() => idle.expire());
				return true;
			}
			if (!answered) {
				const { status, headers: answerHeaders } = parser.head;
				clearTimeout(deadline);
				const encoding = String(answerHeaders['content-encoding'] ?? '').trim();
				if (status >= 200 && status < 300 && !/^(?:identity)?$/i.test(encoding)) {
					broken(failure('HPE_UNREQUESTED_CONTENT_ENCODING', 'compressed answer'));
					return false;
				}
				// A download's file goes to n8n's store through the reused buffers; every other answer is read whole.
				if (status >= 200 && status < 300 && direction === 'download') {
					answered = new SocketBody(socket, regions, () => {
						if (paused && !regions.full) {
							paused = false;
							idle.touch();
							socket.resume();
						}
					});
					answered.once('close', () => {
						idle.stop();
						cancel?.removeEventListener('abort', onCancel);
					});
					settle({ statusCode: status, headers: answerHeaders, body: answered });
				} else {
					answered = [];
					// An error's text only words the error: a little of it, within the Timeout, then what arrived stands.
					if (status >= 300) {
						maxWholeBytes = Math.min(maxResponseBytes, ERROR_BODY_BYTES);
						const text = answered;
						within(() => {
							socket.destroy();
							whole(text);
						});
					}
				}
			}
			if (Array.isArray(answered)) {
				// One byte over the cap is enough for the transport to call the answer too large.
				for (const slice of slices) {
					const kept = slice.subarray(0, maxWholeBytes + 1 - wholeBytes);
					wholeBytes += kept.length;
					answered.push(Buffer.from(kept));
				}
				if (parser.done || wholeBytes > maxWholeBytes) {
					socket.destroy();
					whole(answered);
				}
				return true;
			}
			answered.deliver(slices);
			if (parser.done) {
				idle.stop();
				answered.finish();
				// Connection: close; the slices just delivered stay valid, no read follows.
				socket.destroy();
			}
			if (!regions.full) return true;
			// Until the consumer is done with a buffer (net.Socket's own pause for `onread`); the wait is the
			// consumer's, not the server's, so it does not count as silence.
			paused = true;
			idle.hold();
			socket.pause();
			return false;
		};

		socket.once('end', () => {
			idle.stop();
			try {
				parser.end();
				if (answered instanceof SocketBody) answered.finish();
				else if (answered) whole(answered);
			} catch (error) {
				broken(error);
			}
		});
		socket.once('error', broken);
		// A Node.js that ignored `onread` would hand the bytes here instead: fail rather than lose them.
		socket.once('data', () => broken(failure('ERR_ONREAD_UNSUPPORTED', 'onread ignored')));
		socket.once('close', () => broken(failure('ECONNRESET', 'closed')));
		// Flowing, so that the end of the stream is reported; the bytes themselves only reach `onread`.
		socket.resume();
		if (body.bytes) return void socket.write(Buffer.concat([head, body.bytes]));
		const write = (chunk: Buffer) =>
			new Promise<void>((resolve, reject) =>
				socket.write(chunk, (error) => {
					if (error) return reject(error);
					if (!paused) idle.touch();
					resolve();
				}),
			);
		// A failed write closed the socket (its 'error' reports it), an unreadable file ends the upload here; an
		// answer already there stands as read.
		write(head)
			.then(async () => await body.send!(write, () => answered !== undefined))
			.catch((error: unknown) => {
				if (!answered) broken(error);
			});
	});
}
