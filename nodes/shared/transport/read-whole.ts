import type { Readable } from 'node:stream';

/** The answer held more bytes than it announced: stored, it would not be the file the service described. */
export class LongerThanAnnouncedError extends Error {
	constructor(readonly announced: number) {
		super(`more than the announced ${announced} bytes arrived`);
	}
}

/**
 * Reads an answer of a known length into one buffer of that length, for n8n's database binary mode: n8n keeps
 * a file there as one buffer anyway (`binaryToBuffer`), and given a stream it first keeps every chunk and then
 * joins them, two copies of the file before its database takes its own. Given this buffer it takes it as it
 * is. Answers the bytes read; fewer than announced means the answer was cut short.
 */
export async function readWhole(
	body: Readable,
	announced: number,
): Promise<{ buffer: Buffer; bytes: number }> {
	const buffer = Buffer.allocUnsafe(announced);
	let bytes = 0;
	for await (const chunk of body) {
		const part = chunk as Buffer;
		if (bytes + part.length > announced) {
			body.destroy();
			throw new LongerThanAnnouncedError(announced);
		}
		part.copy(buffer, bytes);
		bytes += part.length;
	}
	return { buffer: bytes === announced ? buffer : buffer.subarray(0, bytes), bytes };
}
