import type { RawAnswer } from './body';
import { cancelled, failure, handshakeCode } from './failures';
import { ResponseFormatError } from './http1-response';
import { AnswerReader } from './socket-answer';
import { Connection } from './socket-connection';
import { requestHead, writeRequest, type OutgoingBody } from './socket-writer';
import { AnswerTimeoutError, idleFailure } from './timeout';

export type { OutgoingBody } from './socket-writer';
export { SocketBody } from './socket-body';

/** A POST the transport sends on its own socket, authenticated (`authenticated` in request.ts). */
export interface OwnPost {
	url: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** The form fields, the credential's among them. */
	form: URLSearchParams;
	cancel?: AbortSignal;
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
	return await new Promise<RawAnswer | AnswerTimeoutError>((resolve, reject) => {
		const exchange = new SocketExchange(target, direction, timeoutMs, maxResponseBytes, cancel, {
			resolve,
			reject,
		});
		exchange.send(head, body);
	});
}

interface Settlement {
	resolve(outcome: RawAnswer | AnswerTimeoutError): void;
	reject(error: Error): void;
}

/** One request on one connection: wires the writer, the connection and the answer reader, and settles once. */
class SocketExchange {
	private readonly connection: Connection;
	private readonly reader: AnswerReader;
	private settled = false;
	private readonly onCancel = () => this.cancelled();

	constructor(
		target: URL,
		private readonly direction: 'upload' | 'download',
		private readonly timeoutMs: number,
		maxResponseBytes: number,
		private readonly cancel: AbortSignal | undefined,
		private readonly settlement: Settlement,
	) {
		this.connection = new Connection(
			target,
			timeoutMs,
			(bytes) => this.reader.read(bytes),
			() => this.idle(),
		);
		this.reader = new AnswerReader(this.connection, direction, maxResponseBytes, {
			settle: (answer) => this.settle(answer),
			broken: (error) => this.broken(error),
			bodyClosed: () => {
				this.connection.idle.stop();
				this.cancel?.removeEventListener('abort', this.onCancel);
			},
		});
		cancel?.addEventListener('abort', this.onCancel, { once: true });
	}

	send(head: Buffer, body: OutgoingBody): void {
		const { socket } = this.connection;
		socket.once('end', () => this.reader.end());
		socket.once('error', (error) => this.broken(error));
		// A Node.js that ignored `onread` would hand the bytes here instead: fail rather than lose them.
		socket.once('data', () => this.broken(failure('ERR_ONREAD_UNSUPPORTED', 'onread ignored')));
		socket.once('close', () => this.broken(failure('ECONNRESET', 'closed')));
		// Flowing, so that the end of the stream is reported; the bytes themselves only reach `onread`.
		socket.resume();
		writeRequest(socket, head, body, {
			written: () => {
				if (!this.connection.paused) this.connection.idle.touch();
			},
			answered: () => this.reader.begun,
			failed: (error) => this.broken(error),
		});
	}

	/**
	 * Silence for the Timeout ends it: before the answer (a timeout the transport may retry: a server that stops
	 * reading an upload, so no write completes, or that does not answer) or in its body.
	 */
	private idle(): void {
		this.connection.socket.destroy();
		const body = this.reader.body;
		if (body) body.finish(idleFailure(this.timeoutMs));
		else if (!this.connection.secured)
			this.settle(failure('ERR_TLS_HANDSHAKE_TIMEOUT', 'the TLS handshake did not complete'));
		else this.settle(new AnswerTimeoutError(this.timeoutMs));
	}

	private cancelled(): void {
		this.connection.idle.stop();
		this.connection.socket.destroy();
		this.reader.body?.finish(cancelled());
		this.settle(cancelled());
	}

	private settle(outcome: RawAnswer | AnswerTimeoutError | Error): void {
		if (this.settled) return;
		this.settled = true;
		this.connection.deadline.stop();
		// A 2xx body is still to come: its silence stays limited until it ends.
		if (!this.reader.body) {
			this.connection.idle.stop();
			this.cancel?.removeEventListener('abort', this.onCancel);
		}
		if (outcome instanceof Error && !(outcome instanceof AnswerTimeoutError))
			this.settlement.reject(outcome);
		else this.settlement.resolve(outcome);
	}

	private broken(error: unknown): void {
		const code = this.failureCode(error);
		// Only the code: Node's messages may quote the address. n8n would replace a message that names
		// ECONNRESET with its generic one, which no longer says that this transfer failed.
		const failed = failure(
			code,
			code === 'ECONNRESET'
				? 'the connection closed before the whole answer arrived'
				: error instanceof ResponseFormatError
					? error.message
					: `${this.direction} failed (${code})`,
		);
		this.connection.close();
		if (!this.reader.failed(failed)) this.settle(failed);
	}

	/** Before the handshake completed nothing was sent: named for what it is, never a dropped connection. */
	private failureCode(error: unknown): string {
		const secured = this.connection.secured;
		const code = String((error as NodeJS.ErrnoException).code);
		return (
			(!secured && handshakeCode(error as Error)) ||
			(!secured && ['ECONNRESET', 'EPIPE'].includes(code)
				? 'ERR_TLS_HANDSHAKE_RESET'
				: undefined) ||
			(error as NodeJS.ErrnoException).code ||
			(error instanceof ResponseFormatError ? error.code : 'ECONNRESET')
		);
	}
}
