import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { signatureDateRange } from '../../../shared/esignature/input';
import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { fileHashParam, locate } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents call from_date and to_date inclusive filters without giving a format: the node sends the dates as entered, and a date alone covers the whole day.',
		name: 'datesNotice',
		type: 'notice',
		default: '',
	},
	fileLocator('file', { description: 'The signed file whose signatures to list' }),
	...returnAllFields(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'From Date',
				name: 'fromDate',
				type: 'string',
				default: '',
				placeholder: 'YYYY-MM-DD or YYYY-MM-DD HH:MM:SS',
				description:
					'Only signatures made on or after this date (a date alone means from the start of that day)',
			},
			{
				displayName: 'To Date',
				name: 'toDate',
				type: 'string',
				default: '',
				placeholder: 'YYYY-MM-DD or YYYY-MM-DD HH:MM:SS',
				description:
					'Only signatures made on or before this date (a date alone includes the whole day)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['signature'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		fromDate?: string;
		toDate?: string;
	};
	const range = signatureDateRange(filters.fromDate, filters.toDate);
	locate(this, 'file', 'file', itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll
		? Number.POSITIVE_INFINITY
		: (this.getNodeParameter('limit', itemIndex, 50) as number);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	// get_esignatures has no paging: every matching record comes in one answer.
	const { body } = await v2<IDataObject[]>(
		this,
		account,
		'get_esignatures',
		{ file_hash: fileHash, from_date: range.from, to_date: range.to },
		{ itemIndex },
	);
	const records = Array.isArray(body) ? body : [];
	return records.slice(0, limit).map((record) => ({ json: { file_hash: fileHash, ...record } }));
}
