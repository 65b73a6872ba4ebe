import { Transform, type Readable } from 'node:stream';
import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { runParameter } from '../node/run-parameters';
import { failure } from './failures';
import { TransportError } from './transport-error';

/** Node parameter path of the user-facing "Request Options → Timeout" (seconds), per item when an expression. */
export const TIMEOUT_PARAMETER = 'requestOptions.timeout';
export const DEFAULT_TIMEOUT_MS = 120_000;

type ParameterContext = Pick<IExecuteFunctions, 'getNode'> & {
	getNodeParameter: (...args: never[]) => unknown;
};

/** The node's Timeout in ms, or undefined when unset; a non-positive or non-numeric value fails the item. */
export function configuredTimeoutMs(ctx: ParameterContext, itemIndex?: number): number | undefined {
	const perItem = 'getInputData' in ctx;
	const read = ctx.getNodeParameter as (...args: unknown[]) => unknown;
	// null as the fallback: n8n throws on a missing parameter when the fallback is undefined.
	// Per item only when it is an expression; a fixed Timeout is read once per run.
	const seconds = perItem
		? runParameter(ctx as IExecuteFunctions, TIMEOUT_PARAMETER, itemIndex ?? 0, null)
		: (read as ILoadOptionsFunctions['getNodeParameter']).call(ctx, TIMEOUT_PARAMETER, null);
	if (seconds === null || seconds === undefined || seconds === '') return undefined;
	const value = typeof seconds === 'string' ? Number(seconds) : seconds;
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
		throw new TransportError(
			'CS_BAD_TIMEOUT',
			`Timeout must be a positive number of seconds, not ${JSON.stringify(seconds)}`,
			{
				kind: 'input',
				itemIndex,
				description:
					'Set "Timeout" under Request Options to the seconds to wait for each answer of the service (for example 120), or remove the option.',
			},
		);
	}
	return Math.round(value * 1000);
}

/** "2 s", "0.5 s": how a timeout is named in messages. */
export function secondsText(ms: number): string {
	return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Marks a request the transport itself gave up on, so it is classified as a timeout and not as a cancellation. */
export class AnswerTimeoutError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(timeoutMs: number) {
		super(`no answer within ${secondsText(timeoutMs)}`);
	}
}

/**
 * For an upload through n8n's helper: the node's Timeout as a limit on silence, started again whenever the helper
 * takes the next part of the body (form-data's legacy stream: a 'data' listener does not change its flow). n8n's
 * own `timeout` runs from the start and n8n replaces any abort signal, so the caller races `expired`.
 */
export function answerDeadline(body: NodeJS.ReadableStream, timeoutMs: number) {
	let expire: (error: AnswerTimeoutError) => void = () => undefined;
	const expired = new Promise<AnswerTimeoutError>((resolve) => {
		expire = resolve;
	});
	const idle = new IdleLimit(timeoutMs, () => expire(new AnswerTimeoutError(timeoutMs)));
	const touch = () => idle.touch();
	body.on('data', touch);
	body.once('end', touch);
	return {
		expired,
		/** The answer started (or the request failed): the limit now watches the answer's body instead. */
		settle: () => {
			idle.stop();
			body.removeListener('data', touch);
		},
	};
}

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

	/** Ends the wait now, as if the limit had run out: a deadline of the caller's passed. */
	expire(): void {
		if (this.ended) return;
		this.stop();
		this.onIdle();
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
 * failures; `onClose` runs once the body was read or dropped; `abandon` first, if it was dropped before its end.
 */
export function idleWatched(
	source: Readable,
	timeoutMs: number,
	failed: (error: unknown) => Error = (error) => error as Error,
	onClose: () => void = () => undefined,
	abandon: () => void = () => undefined,
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
		if (!source.readableEnded) {
			abandon();
			source.destroy();
		}
		onClose();
	});
	return source.pipe(relay);
}
