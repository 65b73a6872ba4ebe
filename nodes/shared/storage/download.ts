import { createReadStream } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { fieldAuthentication, v2, type StorageAccount } from './client';
import { countingStream } from '../transport/binary';
import {
	assertFitsBinaryStore,
	binaryStoreMode,
	binaryStoreProblem,
	diskDownloadPath,
} from '../transport/binary-mode';
import { LongerThanAnnouncedError, readWhole } from './download-whole';
import { transferFailureDescription, unframedDownloadError } from '../transport/errors';
import { expectedBodyBytes } from '../transport/framing';
import type { CompareOutcome } from '../transport/transfer-worker';
import { SocketBody } from '../transport/socket-download';
import { WorkerFileBody } from '../transport/worker-download';
import { startTransferThread } from '../transport/worker-thread';

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
	 * read on the main thread into a reused buffer, or by a worker thread into a temporary file. By default
	 * as `diskDownloadPath` says.
	 */
	via?: 'main thread' | 'worker thread' | 'helper';
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
	const via = options.via ?? diskDownloadPath();
	// A size known in advance is checked before the request; otherwise the announced length, before the body.
	assertFitsBinaryStore(options.expectedSize, options.fileName ?? fileHash, itemIndex);
	const response = await v2<Readable>(
		ctx,
		account,
		'download_file',
		{ file_hash: fileHash },
		{
			itemIndex,
			responseType: 'stream',
			acceptStatuses: options.missingStatuses,
			diskDownload:
				via !== 'helper'
					? {
							via,
							authenticate: account.credentialType
								? async () =>
										await fieldAuthentication(
											ctx,
											account.credentialType!,
											account.baseUrl,
											itemIndex ?? 0,
										)
								: undefined,
						}
					: undefined,
		},
	);
	if (response.status >= 400) {
		await release(response.body);
		return { skipped: 'missing', status: response.status };
	}
	const fileName =
		options.fileName ?? nameFromDisposition(response.headers['content-disposition']) ?? fileHash;
	const expected = expectedBodyBytes(response.headers, options.expectedSize);
	if (expected === 'unframed') {
		await release(response.body);
		throw unframedDownloadError(ctx.getNode(), fileName, itemIndex);
	}
	const announced = expected;
	if (maxBytes !== undefined && Number.isFinite(announced) && announced > maxBytes) {
		await release(response.body);
		return { skipped: 'tooLarge', bytes: announced };
	}
	const tooLargeForStore = binaryStoreProblem(
		Number.isFinite(announced) ? announced : undefined,
		options.fileName ?? fileHash,
		itemIndex,
	);
	if (tooLargeForStore) {
		await release(response.body);
		throw tooLargeForStore;
	}
	const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(
		';',
	)[0];
	if (response.body instanceof WorkerFileBody) {
		try {
			return await storeWorkerFile(ctx, response.body, fileName, contentType, announced, options);
		} finally {
			await response.body.dispose();
		}
	}
	if (response.body instanceof SocketBody) {
		const stored = await storeSocketBody(ctx, response.body, fileName, contentType, options);
		// n8n's store kept other bytes than were read (see `storeSocketBody`): fetched again by the thread,
		// which hands its file over by a checked copy. A download may be repeated; nothing was written.
		if (stored && 'binary' in stored && Number.isFinite(announced) && stored.bytes !== announced)
			throw cutShort(ctx, stored.bytes, announced, itemIndex);
		return (
			stored ?? (await downloadFile(ctx, account, fileHash, { ...options, via: 'worker thread' }))
		);
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
		throw cutShort(ctx, bytes, announced, itemIndex);
	return { binary, fileName, bytes };
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
 * and bytes sampled in every MiB). Undefined when the store is not a file on this machine or does not hold
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

/** Lets go of an answer's body; a worker's temporary file is gone once this resolves. */
async function release(body: Readable): Promise<void> {
	if (body instanceof WorkerFileBody) await body.dispose();
	else body.destroy?.();
}

/**
 * A stream whose async iterator reads the worker's file while the thread still writes it, into one reused
 * buffer, so the copy into n8n's store overlaps the transfer and makes no garbage for n8n's big heap. Safe only
 * for a consumer that is done with a chunk before it asks for the next, as n8n's filesystem store is
 * (fs.promises.writeFile on an iterable, n8n 2.41); piped, it falls back to fresh buffers.
 */
class ReusedBufferStream extends Readable {
	private fallback?: Readable;

	constructor(
		private readonly chunks: () => AsyncGenerator<Buffer, undefined, unknown>,
		private readonly fresh: () => Readable,
	) {
		super();
	}

	override _read(): void {
		if (!this.fallback) {
			const file = this.fresh();
			this.fallback = file;
			file.on('data', (chunk) => {
				if (!this.push(chunk)) file.pause();
			});
			file.once('end', () => this.push(null));
			file.once('error', (error) => this.destroy(error));
		} else this.fallback.resume();
	}

	override [Symbol.asyncIterator](): AsyncGenerator<Buffer, undefined, unknown> {
		return this.chunks();
	}
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

/** The worker's file, checked for completeness, handed to n8n's binary store. */
async function storeWorkerFile(
	ctx: IExecuteFunctions | IPollFunctions,
	body: WorkerFileBody,
	fileName: string,
	contentType: string,
	announced: number,
	options: DownloadOptions,
): Promise<DownloadResult> {
	const { itemIndex, maxBytes } = options;
	let binary: IBinaryData | undefined;
	// Into n8n's store while the thread still writes; a broken transfer fails n8n's write too.
	try {
		binary = await ctx.helpers.prepareBinaryData(
			new ReusedBufferStream(
				() => body.follow(),
				() => body,
			),
			fileName,
			contentType,
		);
	} catch (error) {
		throw downloadFailed(ctx, error, fileName, itemIndex);
	}
	let bytes: number;
	try {
		bytes = await body.stored;
	} catch (error) {
		throw downloadFailed(ctx, error, fileName, itemIndex);
	}
	// A transfer cut short fails before the stored copy is compared.
	if (Number.isFinite(announced) && bytes !== announced)
		throw cutShort(ctx, bytes, announced, itemIndex);
	if (maxBytes !== undefined && bytes > maxBytes) return { skipped: 'tooLarge', bytes };
	if (!(await storedIntact(ctx, binary, body.path))) binary = undefined;
	// A plain copy after a hand-over that n8n did not store as it was read.
	binary ??= await ctx.helpers.prepareBinaryData(
		createReadStream(body.path, { highWaterMark: 1 << 20 }),
		fileName,
		contentType,
	);
	return { binary, fileName, bytes };
}

/**
 * A reused buffer is only safe with a store that writes each chunk before it asks for the next. One that kept
 * a chunk instead (even only some, or for a while) would store other bytes in its place, so the whole stored
 * copy is compared with the temporary file, in a thread, off n8n's main one; on any difference, or when the
 * stored copy cannot be read back, the file is handed over again by a plain copy.
 */
async function storedIntact(
	ctx: IExecuteFunctions | IPollFunctions,
	binary: IBinaryData,
	path: string,
): Promise<boolean> {
	if (!binary.id) return false;
	let storedPath: string;
	try {
		storedPath = await ctx.helpers.getBinaryPath(binary.id);
	} catch {
		return false;
	}
	if (typeof storedPath !== 'string' || !isAbsolute(storedPath)) return false;
	const thread = startTransferThread<CompareOutcome>(
		{ kind: 'compare', paths: [path, storedPath] },
		'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined,
	);
	try {
		return (await thread.next()).same;
	} finally {
		thread.stop();
	}
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
