import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { searchItems } from '../../../shared/search/client';
import { checkQuery } from '../../../shared/search/search-json';
import { storageAccount } from '../../../shared/storage/client';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { listFields, listSettings, locatorGiven } from './common';

const properties: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'invoice 2026',
		description: 'Words to look for in file and folder names (at least 2 characters)',
	},
	folderLocator('folder', {
		displayName: 'Folder',
		required: false,
		default: { __rl: true, mode: 'id', value: 'ROOT' },
		description:
			'Search only in this folder (and its subfolders). ROOT searches the whole account, including files shared through the organisation.',
	}),
	{
		displayName: 'No Subfolders',
		name: 'noSubfolders',
		type: 'boolean',
		default: false,
		description: 'Whether to search only directly in the folder, not in its subfolders',
	},
	...listFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['item'], operation: ['search'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = checkQuery(this.getNodeParameter('query', itemIndex, ''));
	const settings = listSettings(this, itemIndex);
	const located = locatorGiven(this, 'folder', itemIndex)
		? locate(this, 'folder', 'folder', itemIndex)
		: undefined;
	const account = await storageAccount(this, itemIndex);
	// ROOT (or no folder) is the service's default scope: own files plus organisation-shared ones.
	const folderHash =
		located && !isRoot(located)
			? await resolveHash(this, account, located, 'folder', itemIndex)
			: undefined;
	const rows = await searchItems(this, account, {
		fields: {
			query,
			folder_hash: folderHash,
			NoSubfolders:
				folderHash && this.getNodeParameter('noSubfolders', itemIndex, false) ? true : undefined,
			...settings.fields,
		},
		max: settings.max,
		pageSize: settings.pageSize,
		itemIndex,
	});
	return rows.map((json) => ({ json }));
}
