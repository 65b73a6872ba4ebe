const BUFFER_BYTES = 1 << 20;
/** Less room than this left in a buffer: the next read goes to the other one. */
const MIN_READ_BYTES = 64 * 1024;
const RESERVE_BYTES = 64 * 1024;

/**
 * Where a socket reads next (`onread` with a buffer function): two reused 1 MiB buffers, filled read after
 * read, so that bytes keep arriving while the consumer still works on earlier ones, and consecutive reads lie
 * side by side and can be handed on as one chunk. A buffer is filled again only once no slice of it is in use.
 * TLS decrypts what it has already received even after the socket is paused; when both buffers are in use
 * that goes to a small third buffer, or fresh memory if that is in use too (`spilled` counts it), so nothing
 * in use is ever overwritten.
 */
export class ReadRegions {
	/** Two to fill in turn, and a small one for a single read when they are both in use. */
	private readonly buffers = [
		Buffer.allocUnsafeSlow(BUFFER_BYTES),
		Buffer.allocUnsafeSlow(BUFFER_BYTES),
		Buffer.allocUnsafeSlow(MIN_READ_BYTES),
	];
	/** Slices of each buffer still in use (queued for the consumer or held by it). */
	private readonly users = [0, 0, 0];
	/** Where the free room of each buffer starts. */
	private readonly fill = [0, 0, 0];
	private current = 0;
	/** Bytes read into fresh memory because both buffers were in use. */
	spilled = 0;

	/** The memory the next read goes into. */
	next(): Buffer {
		const other = 1 - this.current;
		if (this.users[this.current] === 0) this.fill[this.current] = 0;
		else if (this.room(this.current) < MIN_READ_BYTES + RESERVE_BYTES && this.users[other] === 0) {
			this.current = other;
			this.fill[other] = 0;
		}
		const room = this.room(this.current);
		const buffer = this.buffers[this.current];
		// The last part of a buffer is kept for the one read that may still come once the socket is paused.
		if (room >= MIN_READ_BYTES + RESERVE_BYTES)
			return buffer.subarray(this.fill[this.current], BUFFER_BYTES - RESERVE_BYTES);
		if (room > 0) return buffer.subarray(this.fill[this.current]);
		return this.users[2] === 0 ? this.buffers[2] : Buffer.allocUnsafe(MIN_READ_BYTES);
	}

	/** Whether both buffers are in use and the current one has only its reserve left: time to pause the socket. */
	get full(): boolean {
		return (
			this.room(this.current) < MIN_READ_BYTES + RESERVE_BYTES &&
			this.users[this.current] > 0 &&
			this.users[1 - this.current] > 0
		);
	}

	/** A read of `length` bytes arrived in `region` (as `next()` gave it). */
	read(region: Buffer, length: number): void {
		const index = this.indexOf(region);
		if (index < 0) this.spilled += length;
		if (index < 0 || index === 2) return;
		this.current = index;
		this.fill[index] = region.byteOffset - this.buffers[index].byteOffset + length;
	}

	/** A slice now in use until `release`. */
	hold(slice: Buffer): void {
		const index = this.indexOf(slice);
		if (index >= 0) this.users[index]++;
	}

	release(slice: Buffer): void {
		const index = this.indexOf(slice);
		if (index < 0) return;
		this.users[index]--;
		// Nothing in it is needed any more: filled again from the start (the current one once it is full).
		if (this.users[index] === 0 && index !== this.current && index < 2) this.fill[index] = 0;
	}

	private room(index: number): number {
		return BUFFER_BYTES - this.fill[index];
	}

	private indexOf(slice: Buffer): number {
		return this.buffers.findIndex((buffer) => buffer.buffer === slice.buffer);
	}
}
