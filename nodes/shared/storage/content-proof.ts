import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { BinarySource } from '../transport';
import { v2, type StorageAccount } from './client';

/** Size and CRC-32 of some bytes: what a lost write's proof compares (`contentOf`, `storedContent`). */
export interface Content {
	size: number;
	crc: number;
}

async function measure(bytes: Readable | Buffer): Promise<Content> {
	if (Buffer.isBuffer(bytes)) return { size: bytes.length, crc: crc32(bytes) };
	let size = 0;
	let crc = 0;
	for await (const chunk of bytes as AsyncIterable<Buffer>) {
		size += chunk.length;
		crc = crc32(chunk, crc);
	}
	return { size, crc };
}

/**
 * What this item sent, measured only after its answer was lost: the binary is read once more from n8n's
 * store (its disk in filesystem mode), so an upload that goes well costs nothing extra.
 */
export async function contentOf(source: BinarySource): Promise<Content> {
	return await measure(await source.open());
}

/**
 * What the service stores now under `hash`, measured from its download (as many bytes as the file has;
 * read only after a lost answer, and only for a file whose listed size already matched).
 */
export async function storedContent(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	hash: string,
	itemIndex: number,
): Promise<Content> {
	const { body } = await v2<Readable>(
		ctx,
		account,
		'download_file',
		{ file_hash: hash },
		{ itemIndex, answer: { as: 'stream' } },
	);
	return await measure(body);
}

export const sameContent = (a: Content, b: Content) => a.size === b.size && a.crc === b.crc;
