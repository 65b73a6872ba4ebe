import type { Readable } from 'node:stream';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { countingStream } from '../../../shared/transport/binary';

const properties: INodeProperties[] = [
	{ ...fileLocator(), description: 'The file to download. Files in LINK folders download without a credential (Authentication: None).' },
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

function nameFromDisposition(header: unknown): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string') return undefined;
	const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(value);
	if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
	return /filename="?([^";]+)"?/i.exec(value)?.[1];
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const account = await storageAccount(this, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	// download_file answers raw bytes without a name, so with a credential the name comes from the file's info.
	const info: IDataObject = account.credentialType
		? (await v2<IDataObject>(this, account, 'get_file_info', { file_hash: fileHash }, { itemIndex })).body
		: { hash: fileHash };
	const response = await v2<Readable>(this, account, 'download_file', { file_hash: fileHash }, {
		itemIndex,
		responseType: 'stream',
		timeoutMs: 0,
	});
	const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0];
	const fileName = String(info.name ?? nameFromDisposition(response.headers['content-disposition']) ?? fileHash);
	const expected = Number(response.headers['content-length'] ?? info.size);
	const counted = countingStream(response.body);
	const binary = await this.helpers.prepareBinaryData(counted.stream, fileName, contentType);
	if (Number.isFinite(expected) && counted.bytes() !== expected) {
		throw new NodeApiError(this.getNode(), { message: 'truncated download' }, {
			itemIndex,
			message: `The download was cut short: ${counted.bytes()} of ${expected} bytes arrived`,
			description: 'The connection to the service broke during the transfer. Run the item again.',
		});
	}
	return [{ json: withLink(account, { ...info, name: fileName }, 'file'), binary: { [propertyName]: binary } }];
}
