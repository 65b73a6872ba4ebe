import type { Socket } from 'node:net';

import { failure } from './failures';

/** What follows the request's head: the whole body, or (an upload of a file on disk) a writer of it. */
export interface OutgoingBody {
	contentType: string;
	length: number;
	bytes?: Buffer;
	/**
	 * Writes the body; `write` resolves once the socket has taken a chunk (only then may its buffer be filled
	 * again). Stops, without error, once `answered()`: the rest is not needed.
	 */
	send?: (write: (chunk: Buffer) => Promise<void>, answered: () => boolean) => Promise<void>;
}

/** Refuses a header that would split the request: its name or value is sent as written. */
function headerLine(name: string, value: string): string {
	if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value))
		throw failure('ERR_INVALID_CHAR', 'A request header holds a character HTTP forbids');
	return `${name}: ${value}\r\n`;
}

export function requestHead(
	target: URL,
	headers: Record<string, string>,
	body: OutgoingBody,
): Buffer {
	const own = new Set([
		'accept-encoding',
		'host',
		'content-type',
		'content-length',
		'connection',
		'transfer-encoding',
	]);
	let head =
		`POST ${target.pathname}${target.search} HTTP/1.1\r\n` +
		headerLine('content-type', body.contentType) +
		headerLine('host', target.host);
	for (const [name, value] of Object.entries(headers))
		if (!own.has(name.toLowerCase())) head += headerLine(name, value);
	// A download's file as stored: the same bytes on every path, whatever the server could compress.
	head += headerLine('accept-encoding', 'identity');
	head += headerLine('content-length', String(body.length));
	// Kept alive while a body is still being written: a server that answers before the whole file has arrived
	// then reads the rest instead of closing the connection at once, which would lose its answer to the write
	// error it causes here. The socket is closed once the answer has been read.
	if (!body.send) head += 'connection: close\r\n';
	return Buffer.from(head + '\r\n', 'latin1');
}

export interface WriterEvents {
	/** The socket took a chunk: the request is moving. */
	written(): void;
	/** An answer has begun: the rest of the body is not needed. */
	answered(): boolean;
	/** A write failed before any answer came. */
	failed(error: unknown): void;
}

/**
 * Writes the request: a small body with its head in one write, a file's body chunk by chunk, each only once
 * the socket took the one before (the writer reuses its buffers).
 */
export function writeRequest(
	socket: Socket,
	head: Buffer,
	body: OutgoingBody,
	events: WriterEvents,
): void {
	if (body.bytes) return void socket.write(Buffer.concat([head, body.bytes]));
	const write = (chunk: Buffer) =>
		new Promise<void>((resolve, reject) =>
			socket.write(chunk, (error) => {
				if (error) return reject(error);
				events.written();
				resolve();
			}),
		);
	// A failed write closed the socket (its 'error' reports it), an unreadable file ends the upload here; an
	// answer already there stands as read.
	write(head)
		.then(async () => await body.send!(write, events.answered))
		.catch((error: unknown) => {
			if (!events.answered()) events.failed(error);
		});
}
