import type { Readable } from 'node:stream';

/** An answer as every path hands it on, in n8n's helper's shape: the body is still to be read. */
export interface RawAnswer {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}

export type FormValue = string | number | boolean | undefined | null | Array<string | number>;
export type FormFields = Record<string, FormValue>;

/** Form-encodes fields the way PHP reads them; undefined and null are left out, arrays become `name[]`. */
export function toUrlEncoded(fields: FormFields): URLSearchParams {
	const params = new URLSearchParams();
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		if (Array.isArray(value)) {
			for (const entry of value) params.append(`${name}[]`, String(entry));
		} else if (typeof value === 'boolean') {
			params.append(name, value ? '1' : '0');
		} else {
			params.append(name, String(value));
		}
	}
	return params;
}

/** An error answer's text is read up to this size (it only words the error), within the Timeout in all. */
export const ERROR_BODY_BYTES = 16 * 1024;

/** Reads a response stream into memory, refusing bodies above the cap instead of exhausting memory. */
export async function readCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		total += buffer.length;
		if (total > maxBytes) {
			stream.destroy();
			throw new ResponseTooLargeError(maxBytes);
		}
		chunks.push(buffer);
	}
	return Buffer.concat(chunks);
}

export class ResponseTooLargeError extends Error {
	constructor(readonly maxBytes: number) {
		super(`The response is larger than the ${Math.round(maxBytes / 1048576)} MiB limit`);
	}
}
