import { pipeline, Transform, type Readable } from 'node:stream';

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
 * The body of an answer read through n8n's helper (or a connection of the transport's own), failing with
 * `idleFailure` once nothing arrived for `timeoutMs`: n8n's helper bounds only the wait for the head.
 */
export function idleWatched(body: Readable, timeoutMs: number): Readable {
	if (timeoutMs <= 0) return body;
	const watched = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			limit.touch();
			done(null, chunk);
		},
	});
	const limit = new IdleLimit(timeoutMs, () => watched.destroy(idleFailure(timeoutMs)));
	pipeline(body, watched, () => limit.stop());
	return watched;
}
