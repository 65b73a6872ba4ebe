import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { requireAccount, storageAccount, v1, v2 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { nameField } from '../common/fields';
import { requiredName } from '../common/names';
import { formBody } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{ ...folderLocator(), description: 'The folder to look in' },
	nameField('File Name', 'The exact name of the file, extension included'),
	{
		displayName: 'Fail If Not Found',
		name: 'failIfMissing',
		type: 'boolean',
		default: false,
		description:
			'Whether a missing file is an error; otherwise the node outputs found: false. The service answers 405 for a missing file, and also for a missing or hidden folder: both count as not found.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [parallelRequestsField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['findByName'] } },
	properties,
);

const NOT_FOUND_STATUSES = [404, 405];

interface HashByName {
	success?: boolean;
	file_info?: { hash?: string };
}

/** A plain read per item: items may overlap (Parallel Requests). */
export const concurrency = parallelRequests;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const name = requiredName(this, 'name', itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const folderHash = await folderHashParam(this, account, 'folder', itemIndex);
	// The documents answer not-found conditions with 405 (some services use 404): both mean "no such file here".
	const { status, body } = await v1<HashByName>(this, account, 'api/get_file_info.php', {
		body: formBody({ action: 'get_file_hash_by_name', upload_hash: folderHash, file_name: name }),
		itemIndex,
		answer: { accept: NOT_FOUND_STATUSES },
	});
	const hash =
		!NOT_FOUND_STATUSES.includes(status) && body?.success !== false
			? body?.file_info?.hash
			: undefined;
	if (!hash) {
		if (this.getNodeParameter('failIfMissing', itemIndex, false)) {
			throw new NodeApiError(
				this.getNode(),
				{ message: 'not found', httpCode: String(status) },
				{
					itemIndex,
					message: `No file "${name}" in the folder`,
					description:
						'Check the name (it must match exactly, extension included) and the folder. The service gives the same answer (405) when the folder itself is missing or not visible to this account.',
					httpCode: String(status),
				},
			);
		}
		return [{ json: { found: false, name, parent_folder_hash: folderHash } }];
	}
	const { body: info } = await v2<IDataObject>(
		this,
		account,
		'get_file_info',
		{ file_hash: hash },
		{ itemIndex },
	);
	return [{ json: { found: true, ...withLink(account, info, 'file') } }];
}
