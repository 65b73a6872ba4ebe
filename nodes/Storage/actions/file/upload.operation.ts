import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	fieldAuthentication,
	storageAccount,
	v2,
	type StorageAccount,
} from '../../../shared/storage/client';
import { rootFolderHash } from '../../../shared/storage/account-info';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import {
	binarySource,
	multipartWithFile,
	type BinarySource,
} from '../../../shared/transport/binary';
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
	const startedAt = Math.floor(Date.now() / 1000);

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
			// In n8n's filesystem binary mode the file is on disk: the transport sends it without n8n's helper (diskUploadPath).
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
						authenticate:
							account.credentialType && !uploadKey
								? async () =>
										await fieldAuthentication(
											this,
											account.credentialType!,
											account.baseUrl,
											itemIndex,
										)
								: undefined,
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
							await findUploaded(this, account, folderHash, fileName, source, startedAt, itemIndex),
					}),
		},
	);
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
	};
	return [{ json: withLink(account, file, 'file') }];
}

/** The service's clock may run behind n8n's: an upload stamped a little before it began still counts. */
const CLOCK_SKEW_SECONDS = 300;

function nameMatches(stored: string, requested: string): boolean {
	if (stored === requested) return true;
	const dot = requested.lastIndexOf('.');
	const [base, extension] =
		dot > 0 ? [requested.slice(0, dot), requested.slice(dot)] : [requested, ''];
	return stored.startsWith(`${base} (`) && stored.endsWith(`)${extension}`);
}

/**
 * After an uncertain upload the file counts as stored if one of its name (or a " (n)" variant) and size
 * was uploaded since the upload began (by the item's own timestamp); only when there is none is it sent
 * again. An item without a timestamp never counts: it could be an older file of the same name and size.
 */
async function findUploaded(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	fileName: string,
	source: BinarySource,
	startedAt: number,
	itemIndex: number,
): Promise<UploadedFile | undefined> {
	const listing = (
		await v2<IDataObject[]>(
			ctx,
			account,
			'get_folder_content',
			{ folder_hash: folderHash },
			{ itemIndex },
		)
	).body;
	const match = (Array.isArray(listing) ? listing : []).find(
		(item) =>
			item.type !== 'folder' &&
			nameMatches(String(item.name), fileName) &&
			Number(item.size) === source.size &&
			Number.isFinite(Number(item.timestamp_uploaded)) &&
			item.timestamp_uploaded !== null &&
			Number(item.timestamp_uploaded) >= startedAt - CLOCK_SKEW_SECONDS,
	);
	if (!match) return undefined;
	return {
		file_hash: String(match.hash),
		file_delete_key: String(match.delete_key ?? ''),
		file_name: String(match.name),
		timestamp_uploaded: Number(match.timestamp_uploaded),
		timestamp_last_modified: Number(match.timestamp_last_modified ?? match.timestamp_uploaded),
	};
}
