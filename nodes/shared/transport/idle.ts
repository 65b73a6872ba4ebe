import { Transform, type Readable } from 'node:stream';

import { secondsText } from './timeout';
import { failure } from './failures';

/**
 * The node's Timeout as a limit on silence, in both directions: it runs from the start and again from every read
 * and every completed write (`touch`), so a transfer that keeps moving is never cut, however long it takes, and
 * one that stalls (a server that stops sending, or stops reading an upload) ends after the Timeout. While the
 * transport itself holds the transfer back (its consumer is still busy), `hold` stops the count. 0 = no limit.
 */
export class IdleLimit {
	private timer?: ReturnType<typeof setTimeout>;
	private ended = false;

	constructor(
		private readonly ms: number,
		private readonly onIdle: () => void,
	) {
		this.touch();
	}

	touch(): void {
		if (this.ms <= 0 || this.ended) return;
		if (this.timer) this.timer.refresh();
		else
			this.timer = setTimeout(() => {
				this.ended = true;
				this.onIdle();
			}, this.ms);
	}

	hold(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	stop(): void {
		this.ended = true;
		this.hold();
	}
}

/** A transfer that stalled once its answer had started: a timeout, never taken for a dropped connection. */
export const idleFailure = (ms: number) =>
	failure('ETIMEDOUT', `no data arrived for ${secondsText(ms)} (the node's Timeout)`);

/**
 * An answer's body that fails with `idleFailure` once nothing arrived for `timeoutMs` (never while data flows):
 * n8n's helper bounds only the wait for the head, and undici's own limits are off. `failed` words the source's
 * failures; `onClose` runs once the body was read or dropped.
 */
export function idleWatched(
	source: Readable,
	timeoutMs: number,
	failed: (error: unknown) => Error = (error) => error as Error,
	onClose: () => void = () => undefined,
): Readable {
	const relay = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			limit.touch();
			done(null, chunk);
		},
		// The answer ends once undici has handed its connection back (a microtask after the body's end): the
		// next call then reuses it instead of opening another.
		flush: (done) => void setImmediate(done),
	});
	const limit = new IdleLimit(timeoutMs, () => relay.destroy(idleFailure(timeoutMs)));
	source.on('error', (error) => relay.destroy(failed(error)));
	// Its reader sees a failure; a body nobody reads any more (a stream handed on, then dropped) fails quietly.
	relay.on('error', () => undefined);
	relay.once('close', () => {
		limit.stop();
		if (!source.readableEnded) source.destroy();
		onClose();
	});
	return source.pipe(relay);
}
