import { open } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

import type { ReadRegions } from './read-regions';

/** The stored copy is read back in steps of this size, into two reused buffers. */
const CHECK_BYTES = 4 << 20;
/** A chunk smaller than this waits for the next read, unless nothing more can come before it is taken. */
const BATCH_BYTES = 512 * 1024;

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
