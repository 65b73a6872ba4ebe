import type { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { v2, type StorageAccount } from './client';
import { countingStream } from '../transport/binary';
import { assertFitsBinaryStore, binaryStoreProblem } from '../transport/binary-mode';

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
		},
	);
	if (response.status >= 400) {
		response.body.destroy?.();
		return { skipped: 'missing', status: response.status };
	}
	const announced = Number(response.headers['content-length'] ?? options.expectedSize);
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
	const fileName =
		options.fileName ?? nameFromDisposition(response.headers['content-disposition']) ?? fileHash;
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
				description: 'The connection to the service broke during the transfer. Run it again.',
			},
		);
	}
	const bytes = await storedBytes(ctx, binary);
	if (Number.isFinite(announced) && bytes !== announced) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'truncated download' },
			{
				itemIndex,
				message: `The download was cut short: ${bytes} of ${announced} bytes arrived`,
				description: 'The connection to the service broke during the transfer. Run it again.',
			},
		);
	}
	return { binary, fileName, bytes };
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
