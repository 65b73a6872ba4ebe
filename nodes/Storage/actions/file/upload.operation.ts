import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2Body } from '../../../shared/storage/client';
import { rootFolderHash } from '../../../shared/storage/account-info';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { binarySource, fileBody } from '../../../shared/transport';
import { claimed, writeOutcome } from '../../../shared/storage/reconcile';
import { fileHashesIn, findUploaded, type UploadedFile } from './upload-proof';
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

export const EMPTY_NOTICE =
	'The file is empty (0 bytes): it was stored as an empty file. If it should have content, check the node that produced the binary field.';

function rootRefusal(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'Files cannot be uploaded directly into ROOT', {
		itemIndex,
		description:
			'The service says "Do not upload directly into ROOT". Choose or create a folder inside ROOT and upload there.',
	});
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

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
	// The files there before this upload began are never taken for it (with a credential; see findUploaded).
	const before = uploadKey ? undefined : await fileHashesIn(this, account, folderHash, itemIndex);

	const response = await v2Body<UploadedFile>(
		this,
		account,
		'upload_file',
		// Described once: the transport sends it from disk in n8n's filesystem binary mode, else through n8n's helper.
		fileBody({
			fields: { folder_hash: folderHash, folder_upload_key: uploadKey, ...watermark },
			field: 'file',
			fileName,
			source,
		}),
		{
			itemIndex,
			// With an upload key there is no way to prove the outcome (an anonymous listing refuses PRIVATE folders),
			// nor when the folder could not be listed before: "may have been applied". Otherwise its content settles it.
			write: {
				uncertainStatuses: [494],
				...(before === undefined
					? {
							hint: `The upload of "${fileName}" (${source.size} bytes) may have been applied. Open the folder in the web app (or list it with a credential) and look for a file of that name (or a numbered variant) and size uploaded just now before running again; this node does not upload it twice.`,
						}
					: {
							reconcile: async () =>
								await findUploaded(this, account, folderHash, fileName, itemIndex, {
									before,
									source,
									// A watermark changes the stored bytes of JPG and PNG images: they cannot be compared.
									watermarked: Boolean(watermark.watermark_text),
								}),
						}),
			},
			// A valid upload key replaces credentials, so none are sent with it.
			anonymous: Boolean(uploadKey),
		},
	);
	const { body } = response;
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
		...writeOutcome(response),
	};
	return [{ json: withLink(account, file, 'file') }];
}
