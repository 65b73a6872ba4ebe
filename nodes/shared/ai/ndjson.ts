import { StringDecoder } from 'node:string_decoder';

import { PackError } from '../errors/pack-error';

export const STREAM_BROKE_HINT =
	'The connection to the AI API broke during the answer. Run the item again.';

/** A stream line that is not JSON, or a line longer than the cap (a runaway answer must not exhaust memory). */
export class NdjsonError extends PackError {
	constructor(message: string) {
		super(message, { description: STREAM_BROKE_HINT });
	}
}

const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Parses newline-delimited JSON as it arrives: only the current, unfinished line is held in memory,
 * so a long answer is never buffered whole. Blank lines are skipped; a last line without a newline
 * is still parsed.
 */
export async function* readNdjson(
	source: AsyncIterable<Buffer | Uint8Array | string>,
	maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<unknown> {
	const decoder = new StringDecoder('utf8');
	let pending = '';
	for await (const chunk of source) {
		pending += typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk));
		let newline = pending.indexOf('\n');
		while (newline >= 0) {
			const line = pending.slice(0, newline);
			pending = pending.slice(newline + 1);
			if (line.trim()) yield parseLine(line);
			newline = pending.indexOf('\n');
		}
		if (Buffer.byteLength(pending) > maxLineBytes) {
			throw new NdjsonError(
				`A line of the stream is longer than ${Math.round(maxLineBytes / 1048576)} MiB`,
			);
		}
	}
	pending += decoder.end();
	if (pending.trim()) yield parseLine(pending);
}

const NOT_JSON = Symbol('not JSON');

function parseLine(line: string): unknown {
	let value: unknown = NOT_JSON;
	try {
		value = JSON.parse(line);
	} catch {
		// reported below, outside the catch, as the stream's own error
	}
	if (value === NOT_JSON)
		throw new NdjsonError(`The stream carried a line that is not JSON: ${line.slice(0, 80)}`);
	return value;
}
