import type { Readable } from 'node:stream';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { locatedHash } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { countingStream } from '../../../shared/transport/binary';

const properties: INodeProperties[] = [
	fileLocator(),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['download'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fileHash = locatedHash(this, 'file', 'file', itemIndex);
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const account = await storageAccount(this);
	// download_file answers raw bytes without a name, so the name and size come from the file's info.
	const { body: info } = await v2<IDataObject>(this, account, 'get_file_info', { file_hash: fileHash }, { itemIndex });
	const response = await v2<Readable>(this, account, 'download_file', { file_hash: fileHash }, {
		itemIndex,
		responseType: 'stream',
		timeoutMs: 0,
	});
	const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0];
	const expected = Number(response.headers['content-length'] ?? info.size);
	const counted = countingStream(response.body);
	const binary = await this.helpers.prepareBinaryData(counted.stream, String(info.name ?? fileHash), contentType);
	if (Number.isFinite(expected) && counted.bytes() !== expected) {
		throw new NodeApiError(this.getNode(), { message: 'truncated download' }, {
			itemIndex,
			message: `The download was cut short: ${counted.bytes()} of ${expected} bytes arrived`,
			description: 'The connection to the service broke during the transfer. Run the item again.',
		});
	}
	return [{ json: withLink(account, info, 'file'), binary: { [propertyName]: binary } }];
}
