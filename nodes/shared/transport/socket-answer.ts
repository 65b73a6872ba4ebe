import { Readable } from 'node:stream';

import { ERROR_BODY_BYTES, type RawAnswer } from './body';
import { failure } from './failures';
import { ResponseParser } from './http1-response';
import { SocketBody } from './socket-body';
import type { Connection } from './socket-connection';

export interface AnswerEvents {
	/** The answer as the transport interprets it: whole, or a download's 2xx body still arriving. */
	settle(answer: RawAnswer): void;
	broken(error: unknown): void;
	/** A download's body was read or dropped: its limits and the cancel listener are done. */
	bodyClosed(): void;
}

/**
 * Reads the answer off a `Connection` (strictly, `ResponseParser`): a download's 2xx body goes to the consumer
 * through the reused buffers (`SocketBody`), every other answer is kept whole (capped one byte over
 * `maxResponseBytes`; an error's text at `ERROR_BODY_BYTES`, within the Timeout).
 */
export class AnswerReader {
	private readonly parser = new ResponseParser();
	private answered: SocketBody | Buffer[] | undefined;
	private wholeBytes = 0;
	private maxWholeBytes: number;

	constructor(
		private readonly connection: Connection,
		private readonly direction: 'upload' | 'download',
		maxResponseBytes: number,
		private readonly events: AnswerEvents,
	) {
		this.maxWholeBytes = maxResponseBytes;
	}

	/** Whether an answer has begun (its head arrived). */
	get begun(): boolean {
		return this.answered !== undefined;
	}

	/** A download's 2xx body, once it is being read. */
	get body(): SocketBody | undefined {
		return this.answered instanceof SocketBody ? this.answered : undefined;
	}

	/** One read off the socket; false pauses the socket. */
	read(bytes: Buffer): boolean {
		const { connection } = this;
		connection.idle.touch();
		let slices: Buffer[];
		try {
			slices = this.parser.push(bytes);
		} catch (error) {
			this.events.broken(error);
			return false;
		}
		// Bytes that keep trickling restart the silence limit: the head (1xx answers included) must arrive
		// within the Timeout in all, counted from its first byte.
		if (!this.parser.head) {
			connection.deadline.startOnce(() => connection.idle.expire());
			return true;
		}
		if (!this.answered && !this.begin()) return false;
		if (Array.isArray(this.answered)) return this.keep(this.answered, slices);
		return this.stream(this.answered!, slices);
	}

	/** The head is complete: how its body is read. False if the answer is refused. */
	private begin(): boolean {
		const { status, headers } = this.parser.head!;
		const { connection } = this;
		connection.deadline.stop();
		const encoding = String(headers['content-encoding'] ?? '').trim();
		if (status >= 200 && status < 300 && !/^(?:identity)?$/i.test(encoding)) {
			this.events.broken(failure('HPE_UNREQUESTED_CONTENT_ENCODING', 'compressed answer'));
			return false;
		}
		if (status >= 200 && status < 300 && this.direction === 'download') {
			const body = new SocketBody(connection.socket, connection.regions, () =>
				connection.released(),
			);
			this.answered = body;
			body.once('close', () => this.events.bodyClosed());
			this.events.settle({ statusCode: status, headers, body });
			return true;
		}
		const text: Buffer[] = [];
		this.answered = text;
		// An error's text only words the error: a little of it, within the Timeout, then what arrived stands.
		if (status >= 300) {
			this.maxWholeBytes = Math.min(this.maxWholeBytes, ERROR_BODY_BYTES);
			connection.deadline.start(() => {
				connection.socket.destroy();
				this.whole(text);
			});
		}
		return true;
	}

	private keep(answered: Buffer[], slices: Buffer[]): boolean {
		// One byte over the cap is enough for the transport to call the answer too large.
		for (const slice of slices) {
			const kept = slice.subarray(0, this.maxWholeBytes + 1 - this.wholeBytes);
			this.wholeBytes += kept.length;
			answered.push(Buffer.from(kept));
		}
		if (this.parser.done || this.wholeBytes > this.maxWholeBytes) {
			this.connection.socket.destroy();
			this.whole(answered);
		}
		return true;
	}

	private stream(body: SocketBody, slices: Buffer[]): boolean {
		const { connection } = this;
		body.deliver(slices);
		if (this.parser.done) {
			connection.idle.stop();
			body.finish();
			// Connection: close; the slices just delivered stay valid, no read follows.
			connection.socket.destroy();
		}
		if (!connection.regions.full) return true;
		connection.holdForConsumer();
		return false;
	}

	private whole(chunks: Buffer[]): void {
		this.events.settle({
			statusCode: this.parser.head!.status,
			headers: this.parser.head!.headers,
			body: Readable.from([Buffer.concat(chunks)]),
		});
	}

	/** The server closed its side: the answer ends here, if its framing allows. */
	end(): void {
		this.connection.idle.stop();
		try {
			this.parser.end();
			if (this.answered instanceof SocketBody) this.answered.finish();
			else if (this.answered) this.whole(this.answered);
		} catch (error) {
			this.events.broken(error);
		}
	}

	/**
	 * The exchange failed: a body being read fails with it, an error status stands with what arrived of its
	 * text. False if the failure is the caller's to report (a cut 2xx must not pass for whole).
	 */
	failed(error: Error): boolean {
		if (this.answered instanceof SocketBody) this.answered.finish(error);
		else if (this.answered && this.parser.head!.status >= 300) this.whole(this.answered);
		else return false;
		return true;
	}
}
