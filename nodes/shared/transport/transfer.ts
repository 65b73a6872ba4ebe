import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { countingStream } from './binary';
import { binaryStoreMode, binaryStoreProblem, transferPath } from './binary-mode';
import { transferFailureDescription, unframedDownloadError } from './errors';
import { expectedBodyBytes } from './framing';
import { LongerThanAnnouncedError, readWhole } from './read-whole';
import type { ApiResponse } from './request-types';
import { SocketBody } from './socket-body';
import { TransportError } from './transport-error';

type StoreContext = IExecuteFunctions | IPollFunctions;

/** A download into n8n's binary store, as its caller describes it; the transfer picks the path and checks the copy. */
export interface StoreDownload {
	/**
	 * Sends the request with this `answer.as`: `store` for the transport's own socket, `stream` for n8n's helper.
	 * The answer as a stream, the file as stored (`Accept-Encoding: identity`).
	 */
	send(as: 'store' | 'stream'): Promise<ApiResponse<Readable>>;
	/** An answer that is no file for the caller (a missing file's status): handed back, its body closed. */
	declined?(response: ApiResponse<Readable>): boolean;
	/** The name to store the file under, once the answer is there. */
	fileName(response: ApiResponse<Readable>): string;
	/** The name errors use before the answer: the caller's, or the file's id. */
	label: string;
	/** A size the caller already knows, checked before the request and used when the answer has no length. */
	expectedSize?: number;
	/** The caller's size cap: a file announced (or found while streaming) larger is not stored. */
	maxBytes?: number;
	itemIndex?: number;
	/** By default as `transferPath('download')` says. */
	via?: 'main thread' | 'helper';
}

export type StoredDownload =
	| { binary: IBinaryData; fileName: string; bytes: number }
	| { overCap: number }
	| { declined: ApiResponse<Readable> };

/**
 * A download streamed straight into n8n's binary store (never held in memory), by the path its store mode allows:
 * n8n's filesystem store on the transport's own socket (the stored copy checked, else fetched again through n8n's
 * helper), its database store into one buffer of the announced length, any other through n8n's helper. The byte
 * count is checked against the announced length, so a transfer cut short fails instead of being stored.
 */
export async function downloadIntoStore(
	ctx: StoreContext,
	download: StoreDownload,
): Promise<StoredDownload> {
	const { itemIndex, maxBytes } = download;
	const via = download.via ?? transferPath('download');
	// A size known in advance is checked before the request; otherwise the announced length, before the body.
	const tooLarge = binaryStoreProblem(download.expectedSize, download.label, itemIndex);
	if (tooLarge) throw tooLarge;
	const response = await download.send(via === 'main thread' ? 'store' : 'stream');
	if (download.declined?.(response)) {
		response.body.destroy();
		return { declined: response };
	}
	const fileName = download.fileName(response);
	const announced = expectedBodyBytes(response.headers, download.expectedSize);
	if (announced === 'unframed') {
		response.body.destroy();
		throw unframedDownloadError(fileName, itemIndex);
	}
	if (maxBytes !== undefined && Number.isFinite(announced) && announced > maxBytes) {
		response.body.destroy();
		return { overCap: announced };
	}
	const tooLargeForStore = binaryStoreProblem(
		Number.isFinite(announced) ? announced : undefined,
		download.label,
		itemIndex,
	);
	if (tooLargeForStore) {
		response.body.destroy();
		throw tooLargeForStore;
	}
	const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(
		';',
	)[0];
	const into: Into = { ctx, fileName, contentType, announced, download };
	if (response.body instanceof SocketBody) {
		const stored = await storeSocketBody(into, response.body);
		// n8n's store kept other bytes than were read (see `storeSocketBody`): fetched again through n8n's
		// helper, whose fresh buffers any store keeps safely. A download may be repeated; nothing was written.
		if (stored && 'binary' in stored && Number.isFinite(announced) && stored.bytes !== announced)
			throw cutShort(stored.bytes, announced, itemIndex);
		return stored ?? (await downloadIntoStore(ctx, { ...download, via: 'helper' }));
	}
	// n8n's database mode holds the file as one buffer: read into one of the announced length (see readWhole).
	if (binaryStoreMode() === 'database' && Number.isFinite(announced))
		return await storeWhole(into, response.body);
	return await storeStream(into, response.body);
}

interface Into {
	ctx: StoreContext;
	fileName: string;
	contentType: string;
	/** The answer's length, or Infinity when it was sent chunked and no size was known. */
	announced: number;
	download: StoreDownload;
}

async function storeWhole(into: Into, body: Readable): Promise<StoredDownload> {
	const { ctx, fileName, contentType, announced } = into;
	const { itemIndex } = into.download;
	let whole: { buffer: Buffer; bytes: number };
	try {
		whole = await readWhole(body, announced);
	} catch (error) {
		if (error instanceof LongerThanAnnouncedError) throw longerThanAnnounced(announced, itemIndex);
		throw downloadFailed(error, fileName, itemIndex);
	}
	if (whole.bytes !== announced) throw cutShort(whole.bytes, announced, itemIndex);
	try {
		const binary = await ctx.helpers.prepareBinaryData(whole.buffer, fileName, contentType);
		return { binary, fileName, bytes: whole.bytes };
	} catch (error) {
		throw downloadFailed(error, fileName, itemIndex);
	}
}

/** Through n8n's helper (or an answer read whole): its stream straight to n8n's store. */
async function storeStream(into: Into, body: Readable): Promise<StoredDownload> {
	const { ctx, fileName, contentType, announced } = into;
	const { itemIndex, maxBytes } = into.download;
	// Without an announced length the cap is enforced while streaming, which needs a counting stage in
	// between; otherwise the answer goes to the binary store untouched (an extra stage costs memory).
	const capWhileStreaming = maxBytes !== undefined && !Number.isFinite(announced);
	const counted = capWhileStreaming ? countingStream(body) : undefined;
	const overCap = new Error('over the size cap');
	if (counted && maxBytes !== undefined) {
		body.on('data', () => {
			if (counted.bytes() > maxBytes) body.destroy(overCap);
		});
	}
	let binary: IBinaryData;
	try {
		binary = await ctx.helpers.prepareBinaryData(counted?.stream ?? body, fileName, contentType);
	} catch (error) {
		if (error === overCap || (error as Error)?.cause === overCap)
			return { overCap: counted?.bytes() ?? 0 };
		throw downloadFailed(error, fileName, itemIndex);
	}
	const bytes = await storedBytes(ctx, binary);
	if (Number.isFinite(announced) && bytes !== announced)
		throw otherSizeThroughHelper(fileName, bytes, announced, itemIndex);
	return { binary, fileName, bytes };
}

/**
 * The answer read into reused buffers, straight into n8n's store. Only safe with a store that writes
 * each chunk before it asks for the next, as n8n's filesystem store does; so what n8n stored is checked (size,
 * and a CRC-32 of every byte handed out). Undefined when the store is not a file on this machine or does not hold
 * what was read.
 */
async function storeSocketBody(into: Into, body: SocketBody): Promise<StoredDownload | undefined> {
	const { ctx, fileName, contentType } = into;
	const { itemIndex, maxBytes } = into.download;
	const overCap = new Error('over the size cap');
	if (maxBytes !== undefined) body.cap(maxBytes, overCap);
	let binary: IBinaryData;
	try {
		binary = await ctx.helpers.prepareBinaryData(body, fileName, contentType);
	} catch (error) {
		if (error === overCap || (error as Error)?.cause === overCap) return { overCap: body.bytes };
		throw downloadFailed(error, fileName, itemIndex);
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

/** The size of what the binary store holds: n8n records it; older versions only in the file's metadata. */
async function storedBytes(ctx: StoreContext, binary: IBinaryData): Promise<number> {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.id) return Number((await ctx.helpers.getBinaryMetadata(binary.id)).fileSize);
	return Buffer.from(binary.data, 'base64').length;
}

/**
 * n8n's request helper hands over a body of another size than announced for two reasons it does not tell
 * apart: a connection that broke (fewer bytes), or an answer compressed on the way although the file was
 * asked for as stored (`identity`), which the helper silently inflates and strips of its Content-Encoding
 * (fewer or more bytes). Both are named; a second run tells them apart.
 */
function otherSizeThroughHelper(
	fileName: string,
	bytes: number,
	announced: number,
	itemIndex: number | undefined,
): TransportError {
	return new TransportError(
		'CS_DOWNLOAD_SIZE',
		`The download of ${fileName} does not match its expected size: ${bytes} bytes arrived, ${announced} were expected`,
		{
			itemIndex,
			description:
				"Either the connection broke during the transfer, or the answer was compressed on the way although the node asked for the file as stored (Accept-Encoding: identity), and n8n's request helper unpacked it to another size. " +
				'Run it again: if the same sizes come back, it is the compression — have the service, or the proxy or TLS inspection between n8n and it, send files uncompressed, or point the credential at the service directly.',
		},
	);
}

function longerThanAnnounced(announced: number, itemIndex: number | undefined): TransportError {
	return new TransportError(
		'CS_DOWNLOAD_SIZE',
		`The download does not match its expected size: more than the announced ${announced} bytes arrived`,
		{ itemIndex, description: 'The service sent more than it announced. Run it again.' },
	);
}

function cutShort(bytes: number, announced: number, itemIndex: number | undefined): TransportError {
	return new TransportError(
		'CS_DOWNLOAD_SIZE',
		bytes < announced
			? `The download was cut short: ${bytes} of ${announced} bytes arrived`
			: `The download does not match its expected size: ${bytes} bytes arrived, ${announced} were expected`,
		{
			itemIndex,
			description: 'The connection to the service broke during the transfer. Run it again.',
		},
	);
}

function downloadFailed(
	error: unknown,
	fileName: string,
	itemIndex: number | undefined,
): TransportError {
	return new TransportError(
		'CS_DOWNLOAD_FAILED',
		`The download of ${fileName} failed: ${(error as Error).message}`,
		{ itemIndex, description: transferFailureDescription(error) },
	);
}
