import { isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { v2, type StorageAccount } from './client';
import {
	binaryStoreMode,
	binaryStoreProblem,
	countingStream,
	expectedBodyBytes,
	SocketBody,
	transferFailureDescription,
	transferPath,
	unframedDownloadError,
} from '../transport';
import { LongerThanAnnouncedError, readWhole } from './download-whole';

export function nameFromDisposition(header: unknown): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string') return undefined;
	const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(value);
	if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
	return /filename="?([^";]+)"?/i.exec(value)?.[1];
}

export interface DownloadOptions {
	itemIndex?: number;
	/** The name to store the file under; otherwise the Content-Disposition name, otherwise the hash. */
	fileName?: string;
	/** Size the caller already knows (e.g. from get_file_info), used when the answer has no Content-Length. */
	expectedSize?: number;
	/** Files announced larger than this are not fetched: the result says so instead. */
	maxBytes?: number;
	/** Statuses that mean "the file is not there any more" for this caller, answered as `missing`. */
	missingStatuses?: number[];
	/**
	 * How the bytes reach n8n's binary store: through n8n's request helper, or (filesystem binary mode only)
	 * read on the main thread into reused buffers. By default as `transferPath` says.
	 */
	via?: 'main thread' | 'helper';
}

export type DownloadResult =
	| { binary: IBinaryData; fileName: string; bytes: number }
	| { skipped: 'tooLarge'; bytes: number }
	| { skipped: 'missing'; status: number };

/**
 * `download_file` streamed straight into n8n's binary store (never held in memory), with the byte count
 * checked against the announced length so a transfer cut short fails instead of being stored as complete.
 */
export async function downloadFile(
	ctx: IExecuteFunctions | IPollFunctions,
	account: StorageAccount,
	fileHash: string,
	options: DownloadOptions = {},
): Promise<DownloadResult> {
	const { itemIndex, maxBytes } = options;
	const via = options.via ?? transferPath('download');
	// A size known in advance is checked before the request; otherwise the announced length, before the body.
	const tooLarge = binaryStoreProblem(
		options.expectedSize,
		options.fileName ?? fileHash,
		itemIndex,
	);
	if (tooLarge) throw tooLarge;
	const response = await v2<Readable>(
		ctx,
		account,
		'download_file',
		{ file_hash: fileHash },
		{
			itemIndex,
			responseType: 'stream',
			acceptStatuses: options.missingStatuses,
			// The file as stored, on every path: a compressed answer would be other bytes than the file.
			headers: { 'accept-encoding': 'identity' },
			diskDownload: via === 'main thread',
		},
	);
	if (response.status >= 400) {
		response.body.destroy();
		return { skipped: 'missing', status: response.status };
	}
	const fileName =
		options.fileName ?? nameFromDisposition(response.headers['content-disposition']) ?? fileHash;
	const expected = expectedBodyBytes(response.headers, options.expectedSize);
	if (expected === 'unframed') {
		response.body.destroy();
		throw unframedDownloadError(ctx.getNode(), fileName, itemIndex);
	}
	const announced = expected;
	if (maxBytes !== undefined && Number.isFinite(announced) && announced > maxBytes) {
		response.body.destroy();
		return { skipped: 'tooLarge', bytes: announced };
	}
	const tooLargeForStore = binaryStoreProblem(
		Number.isFinite(announced) ? announced : undefined,
		options.fileName ?? fileHash,
		itemIndex,
	);
	if (tooLargeForStore) {
		response.body.destroy();
		throw tooLargeForStore;
	}
	const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(
		';',
	)[0];
	if (response.body instanceof SocketBody) {
		const stored = await storeSocketBody(ctx, response.body, fileName, contentType, options);
		// n8n's store kept other bytes than were read (see `storeSocketBody`): fetched again through n8n's
		// helper, whose fresh buffers any store keeps safely. A download may be repeated; nothing was written.
		if (stored && 'binary' in stored && Number.isFinite(announced) && stored.bytes !== announced)
			throw cutShort(ctx, stored.bytes, announced, itemIndex);
		return stored ?? (await downloadFile(ctx, account, fileHash, { ...options, via: 'helper' }));
	}
	// n8n's database mode holds the file as one buffer: read into one of the announced length (see readWhole).
	if (binaryStoreMode() === 'database' && Number.isFinite(announced)) {
		let whole: { buffer: Buffer; bytes: number };
		try {
			whole = await readWhole(response.body, announced);
		} catch (error) {
			if (error instanceof LongerThanAnnouncedError)
				throw new NodeApiError(
					ctx.getNode(),
					{ message: 'download longer than announced' },
					{
						itemIndex,
						message: `The download does not match its expected size: more than the announced ${announced} bytes arrived`,
						description: 'The service sent more than it announced. Run it again.',
					},
				);
			throw downloadFailed(ctx, error, fileName, itemIndex);
		}
		if (whole.bytes !== announced) throw cutShort(ctx, whole.bytes, announced, itemIndex);
		try {
			const binary = await ctx.helpers.prepareBinaryData(whole.buffer, fileName, contentType);
			return { binary, fileName, bytes: whole.bytes };
		} catch (error) {
			throw downloadFailed(ctx, error, fileName, itemIndex);
		}
	}
	// Without an announced length the cap is enforced while streaming, which needs a counting stage in
	// between; otherwise the answer goes to the binary store untouched (an extra stage costs memory).
	const capWhileStreaming = maxBytes !== undefined && !Number.isFinite(announced);
	const counted = capWhileStreaming ? countingStream(response.body) : undefined;
	const overCap = new Error('over the size cap');
	if (counted && maxBytes !== undefined) {
		response.body.on('data', () => {
			if (counted.bytes() > maxBytes) response.body.destroy(overCap);
		});
	}
	let binary: IBinaryData;
	try {
		binary = await ctx.helpers.prepareBinaryData(
			counted?.stream ?? response.body,
			fileName,
			contentType,
		);
	} catch (error) {
		if (error === overCap || (error as Error)?.cause === overCap)
			return { skipped: 'tooLarge', bytes: counted?.bytes() ?? 0 };
		throw new NodeApiError(
			ctx.getNode(),
			{ message: (error as Error).message },
			{
				itemIndex,
				message: `The download of ${fileName} failed: ${(error as Error).message}`,
				description: transferFailureDescription(error),
			},
		);
	}
	const bytes = await storedBytes(ctx, binary);
	if (Number.isFinite(announced) && bytes !== announced)
		throw otherSizeThroughHelper(ctx, fileName, bytes, announced, itemIndex);
	return { binary, fileName, bytes };
}

/**
 * n8n's request helper hands over a body of another size than announced for two reasons it does not tell
 * apart: a connection that broke (fewer bytes), or an answer compressed on the way although the file was
 * asked for as stored (`identity`), which the helper silently inflates and strips of its Content-Encoding
 * (fewer or more bytes). Both are named; a second run tells them apart.
 */
function otherSizeThroughHelper(
	ctx: IExecuteFunctions | IPollFunctions,
	fileName: string,
	bytes: number,
	announced: number,
	itemIndex: number | undefined,
): NodeApiError {
	const message = `The download of ${fileName} does not match its expected size: ${bytes} bytes arrived, ${announced} were expected`;
	const description =
		"Either the connection broke during the transfer, or the answer was compressed on the way although the node asked for the file as stored (Accept-Encoding: identity), and n8n's request helper unpacked it to another size. " +
		'Run it again: if the same sizes come back, it is the compression — have the service, or the proxy or TLS inspection between n8n and it, send files uncompressed, or point the credential at the service directly.';
	return new NodeApiError(
		ctx.getNode(),
		{ message, description },
		{ itemIndex, message, description },
	);
}

function cutShort(
	ctx: IExecuteFunctions | IPollFunctions,
	bytes: number,
	announced: number,
	itemIndex: number | undefined,
): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: 'truncated download' },
		{
			itemIndex,
			message:
				bytes < announced
					? `The download was cut short: ${bytes} of ${announced} bytes arrived`
					: `The download does not match its expected size: ${bytes} bytes arrived, ${announced} were expected`,
			description: 'The connection to the service broke during the transfer. Run it again.',
		},
	);
}

/**
 * The answer read into reused buffers, straight into n8n's store. Only safe with a store that writes
 * each chunk before it asks for the next, as n8n's filesystem store does; so what n8n stored is checked (size,
 * and a CRC-32 of every byte handed out). Undefined when the store is not a file on this machine or does not hold
 * what was read.
 */
async function storeSocketBody(
	ctx: IExecuteFunctions | IPollFunctions,
	body: SocketBody,
	fileName: string,
	contentType: string,
	options: DownloadOptions,
): Promise<DownloadResult | undefined> {
	const { itemIndex, maxBytes } = options;
	const overCap = new Error('over the size cap');
	if (maxBytes !== undefined) body.cap(maxBytes, overCap);
	let binary: IBinaryData;
	try {
		binary = await ctx.helpers.prepareBinaryData(body, fileName, contentType);
	} catch (error) {
		if (error === overCap || (error as Error)?.cause === overCap)
			return { skipped: 'tooLarge', bytes: body.bytes };
		throw downloadFailed(ctx, error, fileName, itemIndex);
	} finally {
		body.destroy();
	}
	let storedPath: string | undefined;
	try {
		storedPath = binary.id ? await ctx.helpers.getBinaryPath(binary.id) : undefined;
	} catch {
		return undefined;
	}
	if (typeof storedPath !== 'string' || !isAbsolute(storedPath)) return undefined;
	if (!(await body.storedAs(storedPath).catch(() => false))) return undefined;
	return { binary, fileName, bytes: body.bytes };
}

function downloadFailed(
	ctx: IExecuteFunctions | IPollFunctions,
	error: unknown,
	fileName: string,
	itemIndex: number | undefined,
): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: (error as Error).message },
		{
			itemIndex,
			message: `The download of ${fileName} failed: ${(error as Error).message}`,
			description: transferFailureDescription(error),
		},
	);
}

/** The size of what the binary store holds: n8n records it; older versions only in the file's metadata. */
async function storedBytes(
	ctx: IExecuteFunctions | IPollFunctions,
	binary: IBinaryData,
): Promise<number> {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.id) return Number((await ctx.helpers.getBinaryMetadata(binary.id)).fileSize);
	return Buffer.from(binary.data, 'base64').length;
}
