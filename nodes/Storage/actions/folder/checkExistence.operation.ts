import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { jsonBody } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Folder Hashes',
		name: 'hashes',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'abc123, def456',
		description:
			'Folder hashes separated by commas or new lines (or an expression returning an array). Only folders this account owns and may add to count as existing.',
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
	{ show: { resource: ['folder'], operation: ['checkExistence'] } },
	properties,
);

function hashList(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const raw = ctx.getNodeParameter('hashes', itemIndex, '') as string | string[];
	const list = (Array.isArray(raw) ? raw.map(String) : String(raw).split(/[\s,]+/))
		.map((hash) => hash.trim())
		.filter(Boolean);
	if (list.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No folder hashes given', {
			itemIndex,
			description: 'Enter at least one folder hash.',
		});
	}
	return [...new Set(list)];
}

/** A plain read per item: items may overlap (Parallel Requests). */
export const concurrency = parallelRequests;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const hashes = hashList(this, itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	// The body is JSON, which the central authenticator does not read fields from: the session cookie carries the login.
	const { body } = await v1<Record<string, boolean>>(this, account, 'api/get_uploads_exist.php', {
		body: jsonBody({ hashes }),
		mode: 'session',
		itemIndex,
	});
	return hashes.map((hash) => ({ json: { hash, exists: body?.[hash] === true } }));
}
