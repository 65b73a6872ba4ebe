import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

import { ReadRegions } from './read-regions';
import { IdleLimit } from './timeout';

/** A limit in all, started once (by the first byte of a head or an error's text), whatever trickles after. */
export class Deadline {
	private timer?: ReturnType<typeof setTimeout>;
	private started = false;

	constructor(private readonly ms: number) {}

	start(onExpiry: () => void): void {
		clearTimeout(this.timer);
		this.started = this.ms > 0;
		this.timer = this.started ? setTimeout(onExpiry, this.ms) : undefined;
	}

	startOnce(onExpiry: () => void): void {
		if (!this.started) this.start(onExpiry);
	}

	stop(): void {
		clearTimeout(this.timer);
	}
}

/**
 * One socket of the pack's own HTTP/1.1 client, plain or TLS, read into two reused buffers (Node's `onread`),
 * with its limits: `idle` (the node's Timeout on silence, both directions) and `deadline` (a head or an error's
 * text in all). While the consumer of a body still holds both buffers the socket pauses, and the wait is not
 * silence.
 */
export class Connection {
	readonly socket: Socket;
	readonly regions = new ReadRegions();
	readonly idle: IdleLimit;
	readonly deadline: Deadline;
	paused = false;
	private handshakeDone: boolean;

	constructor(
		target: URL,
		timeoutMs: number,
		onRead: (bytes: Buffer) => boolean,
		onIdle: () => void,
	) {
		const https = target.protocol === 'https:';
		const host = target.hostname.replace(/^\[|\]$/g, '');
		const port = Number(target.port) || (https ? 443 : 80);
		const onread = {
			buffer: () => this.regions.next(),
			callback: (length: number, region: Buffer) => {
				this.regions.read(region, length);
				return onRead(region.subarray(0, length));
			},
		};
		this.socket = https
			? tlsConnect({
					// Node reads a TLS socket into the `onread` buffer too (checked on Node 24); its types omit it.
					...({ onread } as object),
					host,
					port,
					servername: isIP(host) ? undefined : host,
					ALPNProtocols: ['http/1.1'],
				})
			: netConnect({ host, port, onread });
		this.socket.setNoDelay(true);
		// Until the handshake completes no byte of the request has left (Node holds the writes back).
		this.handshakeDone = !https;
		if (https) this.socket.once('secureConnect', () => (this.handshakeDone = true));
		this.idle = new IdleLimit(timeoutMs, onIdle);
		this.deadline = new Deadline(timeoutMs);
	}

	/** Whether the request may have left: a plain socket, or a TLS one past its handshake. */
	get secured(): boolean {
		return this.handshakeDone;
	}

	/** Until the consumer is done with a buffer (net.Socket's own pause for `onread`); the wait is the consumer's. */
	holdForConsumer(): void {
		this.paused = true;
		this.idle.hold();
		this.socket.pause();
	}

	/** A slice is no longer in use: the socket reads again if it waited for room. */
	released(): void {
		if (this.paused && !this.regions.full) {
			this.paused = false;
			this.idle.touch();
			this.socket.resume();
		}
	}

	close(): void {
		this.socket.destroy();
		this.idle.stop();
		this.deadline.stop();
	}
}
