import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import {
	type BodyMode,
	type BodyProblem,
	mediaType,
	mergeFields,
	type SandboxRequest,
} from './request.ts';
import { sinkFile } from './upload-sink.ts';

export interface BodyLimits {
	tmpDir: string;
	/** Bytes per file written to disk at most. */
	fileCap: number;
	maxFormBytes: number;
}

/** Reads the body as the route wants it; resolves with a problem instead of throwing. */
export async function readBody(
	incoming: IncomingMessage,
	req: SandboxRequest,
	mode: BodyMode,
	limits: BodyLimits,
): Promise<BodyProblem | undefined> {
	const type = mediaType(incoming.headers);
	const wantsForm = mode === 'form' || mode === 'form-or-json';
	const wantsJson = mode === 'json' || mode === 'form-or-json';
	if (mode === 'raw') {
		const raw = await readAll(incoming, limits.maxFormBytes);
		if (typeof raw === 'string') return raw;
		req.raw = raw;
		return undefined;
	}
	if (type === 'multipart/form-data' && wantsForm) return readMultipart(incoming, req, limits);
	const raw = await readAll(incoming, limits.maxFormBytes);
	if (typeof raw === 'string') return raw;
	if (type === 'application/x-www-form-urlencoded' && wantsForm) {
		req.body = new URLSearchParams(raw.toString('utf8'));
		mergeFields(req);
		return undefined;
	}
	if (type === 'application/json') {
		// V2 does not decode JSON bodies: that is an invalid request, not an empty one.
		if (!wantsJson) return 'json-not-accepted';
		try {
			req.json = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
		} catch {
			return 'bad-json';
		}
		return undefined;
	}
	if (mode === 'json' && raw.length) return 'bad-json';
	return undefined;
}

function readAll(incoming: IncomingMessage, max: number): Promise<Buffer | BodyProblem> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		incoming.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= max) chunks.push(chunk);
		});
		incoming.on('end', () => resolve(size > max ? 'too-large' : Buffer.concat(chunks)));
		incoming.on('error', () => resolve('aborted'));
	});
}

function readMultipart(
	incoming: IncomingMessage,
	req: SandboxRequest,
	limits: BodyLimits,
): Promise<BodyProblem | undefined> {
	req.multipart = true;
	return new Promise((resolve) => {
		const sinks: ReturnType<typeof sinkFile>[] = [];
		let settled = false;
		let clientGone = false;
		const finish = (problem: BodyProblem | undefined) => {
			if (settled) return;
			settled = true;
			if (problem) for (const sink of sinks) sink.abort();
			mergeFields(req);
			resolve(problem);
		};
		let parser: busboy.Busboy;
		try {
			parser = busboy({
				headers: incoming.headers,
				defParamCharset: 'utf8',
				limits: { fieldSize: limits.maxFormBytes },
			});
		} catch {
			// e.g. a multipart content type without a boundary
			incoming.resume();
			incoming.on('end', () => finish('malformed'));
			return;
		}
		parser.on('field', (name, value) => req.body.append(name, value));
		parser.on('file', (field, stream, info) => {
			const sink = sinkFile(
				stream,
				{ field, filename: info.filename ?? '', declaredType: info.mimeType },
				limits.tmpDir,
				limits.fileCap,
			);
			sinks.push(sink);
			req.files.push(sink.file);
			// A file part that breaks off while the client is still there is a partial upload.
			sink.done.catch(() => finish(clientGone ? 'aborted' : 'truncated'));
		});
		parser.on('close', () => {
			Promise.all(sinks.map((sink) => sink.done)).then(
				() => finish(undefined),
				() => finish(clientGone ? 'aborted' : 'truncated'),
			);
		});
		parser.on('error', () => {
			incoming.unpipe(parser);
			incoming.resume();
			finish('truncated');
		});
		incoming.on('error', () => {
			clientGone = true;
			finish('aborted');
		});
		incoming.pipe(parser);
	});
}
