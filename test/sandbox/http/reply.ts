import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Reply {
	status: number;
	headers?: Record<string, string | string[]>;
	body?: string | Buffer;
	/** Streamed from disk, never loaded into memory. */
	file?: { path: string; size: number };
	/** Written piece by piece, chunked (NDJSON answers); a source that throws cuts the response off mid-body. */
	stream?: AsyncIterable<string>;
}

const JSON_TYPE = 'application/json';

/** The service's own upload statuses have no standard reason phrases. */
export const STATUS_TEXT: Record<number, string> = {
	490: 'Virus Detected',
	491: 'Double Extension',
	492: 'Folder Size Limit Exceeded',
	493: 'File Size Limit Exceeded',
	494: 'Partial Upload',
};

export function json(
	data: unknown,
	status = 200,
	headers: Record<string, string | string[]> = {},
): Reply {
	return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(data) };
}

/** The service's typical failure: a JSON content type with nothing in the body. */
export function empty(status: number, headers: Record<string, string | string[]> = {}): Reply {
	return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: '' };
}

export function text(
	body: string,
	status = 200,
	headers: Record<string, string | string[]> = {},
): Reply {
	return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body };
}

export function html(body: string, status = 200): Reply {
	return { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body };
}

export async function sendReply(res: ServerResponse, reply: Reply): Promise<void> {
	const headers: Record<string, string | string[] | number> = { ...reply.headers };
	if (reply.file) {
		headers['Content-Length'] = reply.file.size;
		res.writeHead(reply.status, STATUS_TEXT[reply.status], headers);
		// Reads of 1 MiB: a real server hands a file to the socket as fast as it takes it (sendfile), and reads of
		// 64 KiB, one turn of this process's busy loop each, would make the stand-in set the download's pace.
		await pipeline(fs.createReadStream(reply.file.path, { highWaterMark: 1 << 20 }), res);
		return;
	}
	if (reply.stream) {
		res.writeHead(reply.status, STATUS_TEXT[reply.status], headers);
		await pipeline(Readable.from(reply.stream), res);
		return;
	}
	const body = reply.body ?? '';
	headers['Content-Length'] = Buffer.byteLength(body);
	res.writeHead(reply.status, STATUS_TEXT[reply.status], headers);
	res.end(body);
}

/** A response written straight onto a socket, for when Node's HTTP layer has already given up on the request. */
export function rawResponse(status: number): string {
	const reason = STATUS_TEXT[status] ?? 'Bad Request';
	return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
}
