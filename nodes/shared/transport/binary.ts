import FormData from 'form-data';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import { TransportError } from './transport-error';

const STREAM_CHUNK_BYTES = 256 * 1024;

export interface BinarySource {
	fileName: string;
	mimeType: string;
	size: number;
	/** Opens the content afresh, so a retried upload starts from the first byte again. */
	open(): Promise<Readable | Buffer>;
	/** The stored file's path on this machine, in n8n's filesystem binary mode only. */
	path?: string;
}

/** n8n's path for a stored file, when it is one on this machine's disk (filesystem mode; not database or S3). */
async function localPath(ctx: IExecuteFunctions, id: string): Promise<string | undefined> {
	try {
		const path = await ctx.helpers.getBinaryPath(id);
		return typeof path === 'string' && isAbsolute(path) && existsSync(path) ? path : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Reads a binary property without loading it: in n8n's filesystem (default) or S3 mode the content
 * is streamed from the binary store; only the legacy in-memory mode hands over a buffer.
 */
export async function binarySource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<BinarySource> {
	const item = ctx.getInputData()[itemIndex];
	if (!item?.binary?.[propertyName]) {
		const available = Object.keys(item?.binary ?? {});
		throw new TransportError(
			'CS_NO_BINARY',
			`No binary property "${propertyName}" on the input item`,
			{
				kind: 'input',
				itemIndex,
				description: available.length
					? `The item has binary properties: ${available.join(', ')}. Set "Input Binary Field" to one of them.`
					: 'The input item carries no binary data. Add a node before this one that reads or downloads a file.',
			},
		);
	}
	const binary: IBinaryData = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const fileName = binary.fileName ?? 'file';
	const mimeType = binary.mimeType ?? 'application/octet-stream';
	if (binary.id) {
		const id = binary.id;
		const metadata = await ctx.helpers.getBinaryMetadata(id);
		return {
			fileName,
			mimeType,
			size: Number(metadata.fileSize),
			path: await localPath(ctx, id),
			// 256 KiB reads: 64 KiB ones spend the upload in per-chunk overhead; 1 MiB ones leave so much
			// freed buffer memory waiting for V8's next full collection that peak memory nears 80 MiB.
			open: async () => await ctx.helpers.getBinaryStream(id, STREAM_CHUNK_BYTES),
		};
	}
	const buffer = Buffer.from(binary.data, BINARY_ENCODING);
	return { fileName, mimeType, size: buffer.length, open: async () => buffer };
}

/** Builds the multipart body with the file last and its length declared, so the body streams with a Content-Length. */
export function multipartWithFile(
	fields: Record<string, string | undefined>,
	fileField: string,
	source: BinarySource,
	content: Readable | Buffer,
	fileName: string,
): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) {
		if (value !== undefined && value !== '') form.append(name, value);
	}
	// form-data takes a knownLength of 0 for "unknown" and then cannot size a stream: an empty file goes as a buffer.
	if (source.size === 0 && !Buffer.isBuffer(content)) content.destroy();
	form.append(fileField, source.size === 0 ? Buffer.alloc(0) : content, {
		filename: fileName,
		contentType: source.mimeType,
		knownLength: source.size,
	});
	return form;
}

/** Counts bytes as they pass, so a download cut short is noticed instead of stored as a complete file. */
export function countingStream(source: Readable): { stream: PassThrough; bytes: () => number } {
	let count = 0;
	const stream = new PassThrough();
	source.on('data', (chunk: Buffer) => {
		count += chunk.length;
	});
	source.on('error', (error) => stream.destroy(error));
	source.pipe(stream);
	return { stream, bytes: () => count };
}
