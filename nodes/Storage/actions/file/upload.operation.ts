import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2, type StorageAccount } from '../../../shared/storage/client';
import { locatedHash, ROOT } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { binarySource, multipartWithFile, type BinarySource } from '../../../shared/transport/binary';

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: 'Name to store the file under; by default the binary\'s own file name. The service adds " (1)" when the name exists.',
			},
		],
	},
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
	const folderHash = locatedHash(this, 'folder', 'folder', itemIndex);
	if (folderHash === ROOT) {
		throw new NodeOperationError(this.getNode(), 'Files cannot be uploaded directly into ROOT', {
			itemIndex,
			description: 'Choose or create a folder inside ROOT and upload there.',
		});
	}
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const source = await binarySource(this, itemIndex, propertyName);
	const fileName = ((this.getNodeParameter('options.fileName', itemIndex, '') as string) || source.fileName).trim();
	const account = await storageAccount(this);
	const startedAt = Math.floor(Date.now() / 1000);

	const { body } = await v2<UploadedFile>(this, account, 'upload_file', {}, {
		itemIndex,
		write: true,
		timeoutMs: 0,
		uncertainStatuses: [494],
		multipart: async () => multipartWithFile({ folder_hash: folderHash }, 'file', source, await source.open(), fileName),
		reconcile: async () => await findUploaded(this, account, folderHash, fileName, source, startedAt, itemIndex),
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

/** After an uncertain upload: the file counts as stored if one of its name and size appeared since the upload began. */
async function findUploaded(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	folderHash: string,
	fileName: string,
	source: BinarySource,
	startedAt: number,
	itemIndex: number,
): Promise<UploadedFile | undefined> {
	const { body } = await v2<IDataObject[]>(ctx, account, 'get_folder_content', { folder_hash: folderHash }, { itemIndex });
	const match = (Array.isArray(body) ? body : []).find(
		(item) =>
			item.type === 'file' &&
			nameMatches(String(item.name), fileName) &&
			Number(item.size) === source.size &&
			Number(item.timestamp_uploaded) >= startedAt - 300,
	);
	if (!match) return undefined;
	return {
		file_hash: String(match.hash),
		file_delete_key: String(match.delete_key ?? ''),
		file_name: String(match.name),
		timestamp_uploaded: Number(match.timestamp_uploaded),
		timestamp_last_modified: Number(match.timestamp_last_modified),
	};
}
