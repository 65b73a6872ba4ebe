import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { v2, type StorageAccount } from '../../../shared/storage/client';
import { contentOf, sameContent, storedContent } from '../../../shared/storage/content-proof';
import { claimed, mayHaveBeenApplied } from '../../../shared/storage/reconcile';
import type { BinarySource } from '../../../shared/transport';

export interface UploadedFile {
	file_hash: string;
	file_delete_key: string;
	file_name: string;
	timestamp_uploaded: number;
	timestamp_last_modified: number;
}

/**
 * The hashes of the files in a folder now; undefined when this account may add files to it but not list it
 * (403, 405): a lost answer then cannot be proven, and the upload reports "may have been applied".
 */
export async function fileHashesIn(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	itemIndex: number,
): Promise<Set<string> | undefined> {
	const { status, body } = await v2<IDataObject[]>(
		ctx,
		account,
		'get_folder_content',
		{ folder_hash: folderHash },
		{ itemIndex, answer: { accept: [403, 405] } },
	);
	if (status !== 200) return undefined;
	return new Set(
		(Array.isArray(body) ? body : [])
			.filter((item) => item.type !== 'folder')
			.map((item) => String(item.hash)),
	);
}

const splitName = (name: string) => {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
};

/**
 * Whether a stored name may be the one the service gave the requested name: the documents show a taken
 * name suffixed "such as (1)", so any decoration around the stem is tolerated (" (1)", "_1", "-1",
 * "(1)", "Copy of …"), as long as the stem and the extension are kept (letter case aside).
 */
export function mayBeStoredAs(stored: string, requested: string): boolean {
	const [stem, extension] = splitName(requested.toLowerCase());
	const [storedStem, storedExtension] = splitName(stored.toLowerCase());
	return storedExtension === extension && storedStem.includes(stem);
}

const candidate = (item: IDataObject) => ({
	hash: String(item.hash),
	name: String(item.name),
	size: Number(item.size),
});

/**
 * After an uncertain upload, a file is adopted as this upload's only when its content is shown to be ours:
 * it was not in the folder when the upload began (`before`, listed then), no other item of this run stored
 * it, its name may be ours (`mayBeStoredAs`), its size is the size sent and the CRC-32 of its download is
 * that of the bytes sent (downloads happen only here, after a lost answer, and only for such new files of
 * the right size). No clock is compared. No such new file: it was not stored and is sent again (after a
 * timeout the transport looks twice first). One: adopted. Several with our bytes, or a watermarked upload
 * (the service changes its bytes, so nothing can be compared) with new files of its name: "may have been
 * applied", naming them.
 */
export async function findUploaded(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	fileName: string,
	itemIndex: number,
	expected: { before: Set<string>; source: BinarySource; watermarked: boolean },
): Promise<UploadedFile | undefined> {
	const { body: listing } = await v2<IDataObject[]>(
		ctx,
		account,
		'get_folder_content',
		{ folder_hash: folderHash },
		{ itemIndex },
	);
	const check = `Open the folder ${folderHash} and look for "${fileName}" (or a numbered variant) uploaded just now before running this item again; the node did not upload it twice.`;
	const taken = claimed(ctx);
	const fresh = (Array.isArray(listing) ? listing : []).filter(
		(item) =>
			item.type !== 'folder' &&
			!expected.before.has(String(item.hash)) &&
			!taken.has(String(item.hash)) &&
			mayBeStoredAs(String(item.name), fileName),
	);
	if (fresh.length === 0) return undefined;
	const named = (items: IDataObject[]) =>
		items.map((item) => `"${String(item.name)}" (${String(item.hash)})`).join(', ');
	if (expected.watermarked)
		throw mayHaveBeenApplied(
			ctx,
			itemIndex,
			`the answer to the watermarked upload of "${fileName}" was lost, and ${fresh.length === 1 ? 'a file that may be it' : `${fresh.length} files that may be it`} arrived since it began: ${named(fresh)}`,
			`A watermark changes the stored image, so its content cannot be compared with what was sent. ${check}`,
			fresh.map(candidate),
		);
	const sent = await contentOf(expected.source);
	const ours: IDataObject[] = [];
	for (const item of fresh.filter((file) => Number(file.size) === sent.size))
		if (sameContent(await storedContent(ctx, account, String(item.hash), itemIndex), sent))
			ours.push(item);
	if (ours.length === 0) return undefined;
	if (ours.length > 1)
		throw mayHaveBeenApplied(
			ctx,
			itemIndex,
			`the answer to the upload of "${fileName}" was lost, and ${ours.length} files with exactly its content arrived since it began: ${named(ours)}`,
			`Another client may have uploaded the same file meanwhile, so the node picked none of them. ${check}`,
			ours.map(candidate),
		);
	const [match] = ours;
	return {
		file_hash: String(match.hash),
		file_delete_key: String(match.delete_key ?? ''),
		file_name: String(match.name),
		timestamp_uploaded: Number(match.timestamp_uploaded),
		timestamp_last_modified: Number(match.timestamp_last_modified ?? match.timestamp_uploaded),
	};
}
