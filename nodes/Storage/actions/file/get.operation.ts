import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessRightsField } from '../../../shared/storage/access-rights-field';
import { requireAccount, storageAccount, v1, v2 } from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { runParameter } from '../../../shared/node/run-parameters';

const properties: INodeProperties[] = [
	fileLocator(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			accessRightsField,
			{
				displayName: 'Include Legacy Details',
				name: 'legacyDetails',
				type: 'boolean',
				default: false,
				description:
					"Whether to add content type, extension and, for images, width and height (one more request; needs the file's delete key)",
			},
			parallelRequestsField,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['get'] } },
	properties,
);

/** A plain read of one file per item: items may overlap (Parallel Requests). */
export const concurrency = parallelRequests;

interface LegacyInfo {
	success?: boolean;
	file_info?: IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = runParameter<{ accessRights?: boolean; legacyDetails?: boolean }>(
		this,
		'options',
		itemIndex,
		{},
	);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	const { body } = await v2<IDataObject>(
		this,
		account,
		'get_file_info',
		{ file_hash: fileHash, get_access_rights: options.accessRights || undefined },
		{ itemIndex },
	);
	const output = withLink(account, body, 'file');
	if (options.legacyDetails && body.delete_key) {
		// Documented as GET with the delete key in the query; the transport never shows a query string.
		const { body: legacy } = await v1<LegacyInfo>(this, account, 'api/get_file_info.php', {
			method: 'GET',
			query: { hash: fileHash, del_key: String(body.delete_key) },
			itemIndex,
		});
		output.details = legacy?.file_info ?? null;
	}
	return [{ json: output }];
}
