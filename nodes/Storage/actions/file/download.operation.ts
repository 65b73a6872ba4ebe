import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { downloadFile } from '../../../shared/storage/download';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';

const properties: INodeProperties[] = [
	{
		...fileLocator(),
		description:
			"The file to download. Files in LINK folders download without a credential (Authentication: None). The documented answer carries no file name: with a credential the name comes from the file info; without one from Content-Disposition when sent, else the file's hash.",
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['download'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const account = await storageAccount(this, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	// download_file answers raw bytes without a name, so with a credential the name comes from the file's info.
	const info: IDataObject = account.credentialType
		? (
				await v2<IDataObject>(
					this,
					account,
					'get_file_info',
					{ file_hash: fileHash },
					{ itemIndex },
				)
			).body
		: { hash: fileHash };
	const result = await downloadFile(this, account, fileHash, {
		itemIndex,
		fileName: info.name === undefined ? undefined : String(info.name),
		expectedSize: info.size === undefined ? undefined : Number(info.size),
	});
	if (!('binary' in result)) throw new Error('The download was skipped');
	return [
		{
			json: withLink(account, { ...info, name: result.fileName }, 'file'),
			binary: { [propertyName]: result.binary },
		},
	];
}
