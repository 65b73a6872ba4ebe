import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2, type StorageAccount } from '../../../shared/storage/client';
import { rootFolderHash } from '../../../shared/storage/account-info';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { binarySource, multipartWithFile } from '../../../shared/transport/binary';
import {
	claimed,
	mayHaveBeenApplied,
	serviceSecondsAtStart,
} from '../../../shared/storage/reconcile';
import { uploadOptions, watermarkFields, type UploadOptions } from './upload.options';

const properties: INodeProperties[] = [
	{ ...folderLocator(), description: 'The folder to upload into (not ROOT itself)' },
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to upload',
	},
	uploadOptions,
	{
		displayName:
			'The documents neither allow nor forbid an empty file: a 0-byte file is stored, and its output says so (empty: true and a notice).',
		name: 'emptyFileNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['upload'] } },
	properties,
);

interface UploadedFile {
	file_hash: string;
	file_delete_key: string;
	file_name: string;
	timestamp_uploaded: number;
	timestamp_last_modified: number;
}

export const EMPTY_NOTICE =
	'The file is empty (0 bytes): it was stored as an empty file. If it should have content, check the node that produced the binary field.';

function rootRefusal(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'Files cannot be uploaded directly into ROOT', {
		itemIndex,
		description:
			'The service says "Do not upload directly into ROOT". Choose or create a folder inside ROOT and upload there.',
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const located = locate(this, 'folder', 'folder', itemIndex);
	// Every form that names ROOT is refused: the literal, a path link to the account's root, or ROOT's own hash.
	if (isRoot(located) || ('path' in located && located.path.length === 0))
		throw rootRefusal(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as UploadOptions;
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const source = await binarySource(this, itemIndex, propertyName);
	const fileName = (options.fileName || source.fileName).trim();
	const watermark = watermarkFields(this, options, fileName, itemIndex);
	const account = await storageAccount(this, itemIndex);
	const uploadKey = options.uploadKey?.trim();
	if (!uploadKey && !account.credentialType) {
		throw new NodeOperationError(
			this.getNode(),
			"Uploading without a credential needs the folder's upload key",
			{
				itemIndex,
				description:
					'Set the option "Upload Key" (the folder\'s add-files key), or choose a credential.',
			},
		);
	}
	const folderHash = await resolveHash(this, account, located, 'folder', itemIndex);
	// ROOT's real hash is known only with a credential; without one the service's own 405 answers.
	if (account.credentialType && folderHash === (await rootFolderHash(this, account, itemIndex)))
		throw rootRefusal(this, itemIndex);
	// Only a duration of n8n's clock is used by the reconciling read: the service's own clock dates the start.
	const startedMs = Date.now();

	const { body } = await v2<UploadedFile>(
		this,
		account,
		'upload_file',
		{},
		{
			itemIndex,
			write: true,
			uncertainStatuses: [494],
			// A valid upload key replaces credentials, so none are sent with it.
			anonymous: Boolean(uploadKey),
			multipart: async () =>
				multipartWithFile(
					{ folder_hash: folderHash, folder_upload_key: uploadKey, ...watermark },
					'file',
					source,
					await source.open(),
					fileName,
				),
			// In n8n's filesystem binary mode the file is on disk: the transport sends it without n8n's helper (transferPath).
			diskUpload: source.path
				? {
						fields: { folder_hash: folderHash, folder_upload_key: uploadKey, ...watermark },
						file: {
							field: 'file',
							path: source.path,
							fileName,
							mimeType: source.mimeType,
							size: source.size,
						},
					}
				: undefined,
			// With an upload key there is no way to prove the outcome (an anonymous listing refuses PRIVATE folders and
			// has no timestamps, so an older file of the same name and size would look like this upload): report
			// "may have been applied" instead. With a credential the folder content, with timestamps, settles it.
			...(uploadKey
				? {
						uncertainHint: `The upload of "${fileName}" (${source.size} bytes) may have been applied. Open the folder in the web app (or list it with a credential) and look for a file of that name (or a " (n)" variant) and size uploaded just now before running again; this node does not upload it twice.`,
					}
				: {
						reconcile: async () =>
							await findUploaded(this, account, folderHash, fileName, itemIndex, {
								startedMs,
								// A watermark changes the stored bytes (and so the size) of JPG and PNG images.
								size: watermark.watermark_text ? undefined : source.size,
							}),
					}),
		},
	);
	claimed(this).add(String(body.file_hash));
	// The service's own field names stay as it answered them; the uniform names every file output carries
	// (hash, name, delete_key) are added beside them.
	const file: IDataObject = {
		...(body as unknown as IDataObject),
		hash: body.file_hash,
		name: body.file_name,
		size: source.size,
		delete_key: body.file_delete_key,
		timestamp_uploaded: body.timestamp_uploaded,
		timestamp_last_modified: body.timestamp_last_modified,
		parent_folder_hash: folderHash,
		// The documents neither allow nor forbid an empty file; the service stores one, so it is stored and said.
		...(source.size === 0 ? { empty: true, notice: EMPTY_NOTICE } : {}),
	};
	return [{ json: withLink(account, file, 'file') }];
}

function nameMatches(stored: string, requested: string): boolean {
	if (stored === requested) return true;
	const dot = requested.lastIndexOf('.');
	const [base, extension] =
		dot > 0 ? [requested.slice(0, dot), requested.slice(dot)] : [requested, ''];
	return new RegExp(`^${escape(base)} \\(\\d+\\)${escape(extension)}$`).test(stored);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * After an uncertain upload, a file counts as this upload's when the folder holds exactly one of its name
 * (or a " (n)" variant), uploaded after the upload began by the service's own clock (the `Date` of the
 * listing's answer minus the time elapsed since), of its size unless a watermark changed it, and not
 * stored by another item of this run. None: it was not stored and is sent again. More than one: they are
 * named and nothing is picked. Without a `Date` from the service nothing can be dated: "may have been applied".
 */
async function findUploaded(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	fileName: string,
	itemIndex: number,
	expected: { startedMs: number; size?: number },
): Promise<UploadedFile | undefined> {
	const { body: listing, headers } = await v2<IDataObject[]>(
		ctx,
		account,
		'get_folder_content',
		{ folder_hash: folderHash },
		{ itemIndex },
	);
	const startedAt = serviceSecondsAtStart(headers, Date.now() - expected.startedMs);
	const check = `Open the folder ${folderHash} and look for "${fileName}" (or a " (n)" variant) uploaded just now before running this item again; the node did not upload it twice.`;
	const taken = claimed(ctx);
	const sameFile = (Array.isArray(listing) ? listing : []).filter(
		(item) =>
			item.type !== 'folder' &&
			nameMatches(String(item.name), fileName) &&
			(expected.size === undefined || Number(item.size) === expected.size) &&
			!taken.has(String(item.hash)),
	);
	if (sameFile.length > 0 && startedAt === undefined)
		throw mayHaveBeenApplied(
			ctx,
			itemIndex,
			`the answer to the upload of "${fileName}" was lost, and the service's listing carried no Date to tell a new file from an older one of the same name`,
			check,
		);
	const candidates = sameFile.filter(
		(item) =>
			item.timestamp_uploaded !== null &&
			Number.isFinite(Number(item.timestamp_uploaded)) &&
			Number(item.timestamp_uploaded) >= startedAt!,
	);
	if (candidates.length === 0) return undefined;
	if (candidates.length > 1)
		throw mayHaveBeenApplied(
			ctx,
			itemIndex,
			`the answer to the upload of "${fileName}" was lost, and ${candidates.length} files that fit it arrived since it began: ${candidates.map((item) => `"${String(item.name)}" (${String(item.hash)})`).join(', ')}`,
			`Another client may have uploaded a file of the same name meanwhile, so the node picked none of them. ${check}`,
		);
	const [match] = candidates;
	return {
		file_hash: String(match.hash),
		file_delete_key: String(match.delete_key ?? ''),
		file_name: String(match.name),
		timestamp_uploaded: Number(match.timestamp_uploaded),
		timestamp_last_modified: Number(match.timestamp_last_modified ?? match.timestamp_uploaded),
	};
}
