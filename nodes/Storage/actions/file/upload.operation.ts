import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { fieldAuthentication, storageAccount, v1, v2, type StorageAccount } from '../../../shared/storage/client';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { binarySource, multipartWithFile, type BinarySource } from '../../../shared/transport/binary';
import { workerTransfersEnabled } from '../../../shared/transport/binary-mode';
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

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['upload'] } }, properties);

interface UploadedFile {
	file_hash: string;
	file_delete_key: string;
	file_name: string;
	timestamp_uploaded: number;
	timestamp_last_modified: number;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const located = locate(this, 'folder', 'folder', itemIndex);
	if (isRoot(located)) {
		throw new NodeOperationError(this.getNode(), 'Files cannot be uploaded directly into ROOT', {
			itemIndex,
			description: 'Choose or create a folder inside ROOT and upload there.',
		});
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as UploadOptions;
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const source = await binarySource(this, itemIndex, propertyName);
	const fileName = (options.fileName || source.fileName).trim();
	const watermark = watermarkFields(this, options, fileName, itemIndex);
	const account = await storageAccount(this, itemIndex);
	const uploadKey = options.uploadKey?.trim();
	if (!uploadKey && !account.credentialType) {
		throw new NodeOperationError(this.getNode(), 'Uploading without a credential needs the folder\'s upload key', {
			itemIndex,
			description: 'Set the option "Upload Key" (the folder\'s add-files key), or choose a credential.',
		});
	}
	const folderHash = await resolveHash(this, account, located, 'folder', itemIndex);
	const startedAt = Math.floor(Date.now() / 1000);

	const { body } = await v2<UploadedFile>(this, account, 'upload_file', {}, {
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
		// Opt-in: in n8n's filesystem binary mode the file can be read from disk and sent by a worker thread.
		workerUpload: source.path && workerTransfersEnabled()
			? {
					fields: { folder_hash: folderHash, folder_upload_key: uploadKey, ...watermark },
					file: { field: 'file', path: source.path, fileName, mimeType: source.mimeType, size: source.size },
					authenticate:
						account.credentialType && !uploadKey
							? async () => await fieldAuthentication(this, account.credentialType!, account.baseUrl, itemIndex)
							: undefined,
				}
			: undefined,
		reconcile: async () => await findUploaded(this, account, folderHash, fileName, source, startedAt, Boolean(uploadKey), itemIndex),
	});
	const file: IDataObject = {
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

function nameMatches(stored: string, requested: string): boolean {
	if (stored === requested) return true;
	const dot = requested.lastIndexOf('.');
	const [base, extension] = dot > 0 ? [requested.slice(0, dot), requested.slice(dot)] : [requested, ''];
	return stored.startsWith(`${base} (`) && stored.endsWith(`)${extension}`);
}

/**
 * After an uncertain upload the file counts as stored if one of its name (or a " (n)" variant) and
 * size appeared since the upload began; only when there is none is it sent again.
 */
async function findUploaded(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	fileName: string,
	source: BinarySource,
	startedAt: number,
	byKey: boolean,
	itemIndex: number,
): Promise<UploadedFile | undefined> {
	const listing = byKey
		? (await v1<IDataObject[]>(ctx, account, 'api/get_file_list_for_upload.php', { method: 'GET', qs: { hash: folderHash }, anonymous: true, itemIndex })).body
		: (await v2<IDataObject[]>(ctx, account, 'get_folder_content', { folder_hash: folderHash }, { itemIndex })).body;
	const match = (Array.isArray(listing) ? listing : []).find(
		(item) =>
			item.type !== 'folder' &&
			nameMatches(String(item.name), fileName) &&
			Number(item.size ?? item.Size) === source.size &&
			(item.timestamp_uploaded === undefined || Number(item.timestamp_uploaded) >= startedAt - 300),
	);
	if (!match) return undefined;
	return {
		file_hash: String(match.hash),
		file_delete_key: String(match.delete_key ?? ''),
		file_name: String(match.name),
		timestamp_uploaded: Number(match.timestamp_uploaded ?? startedAt),
		timestamp_last_modified: Number(match.timestamp_last_modified ?? startedAt),
	};
}
