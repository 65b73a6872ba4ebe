import type { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { v2, type StorageAccount } from './client';
import { downloadIntoStore } from '../transport';

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
 * `download_file` into n8n's binary store. The transfer (`downloadIntoStore`) picks the path for the store's mode
 * and checks what arrived; here: which file, under which name, which statuses mean it is gone, and the cap.
 */
export async function downloadFile(
	ctx: IExecuteFunctions | IPollFunctions,
	account: StorageAccount,
	fileHash: string,
	options: DownloadOptions = {},
): Promise<DownloadResult> {
	const { itemIndex } = options;
	const stored = await downloadIntoStore(ctx, {
		send: async (as) =>
			await v2<Readable>(
				ctx,
				account,
				'download_file',
				{ file_hash: fileHash },
				{
					itemIndex,
					answer: { as, accept: options.missingStatuses },
					// The file as stored, on every path: a compressed answer would be other bytes than the file.
					headers: { 'accept-encoding': 'identity' },
				},
			),
		declined: (response) => response.status >= 400,
		fileName: (response) =>
			options.fileName ?? nameFromDisposition(response.headers['content-disposition']) ?? fileHash,
		label: options.fileName ?? fileHash,
		expectedSize: options.expectedSize,
		maxBytes: options.maxBytes,
		itemIndex,
		via: options.via,
	});
	if ('declined' in stored) return { skipped: 'missing', status: stored.declined.status };
	if ('overCap' in stored) return { skipped: 'tooLarge', bytes: stored.overCap };
	return stored;
}
