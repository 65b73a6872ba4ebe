import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { accessRightsField } from '../../../shared/storage/access-rights-field';
import {
	checkPageSize,
	MAX_PAGE_SIZE,
	SearchInputError,
	sortFields,
	type SortBy,
} from '../../../shared/search/search-json';
import type { FormFields } from '../../../shared/transport';
import { returnAllFields } from '../../../shared/node/list-fields';

/** Return All / Limit and the options both search operations share (paging, sorting, access rights). */
export const listFields: INodeProperties[] = [
	{
		displayName:
			'The documents do not show the JSON answer of the search: the node reads {rows, total_rows, page_count} (the web-table envelope), a bare array of items, or one list of items under another key, and fails naming these shapes otherwise.',
		name: 'answerShapeNotice',
		type: 'notice',
		default: '',
	},
	...returnAllFields({ returnAllDefault: false }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			accessRightsField,
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
				default: MAX_PAGE_SIZE,
				description:
					'Results fetched per request while paging (1 to 1,000). Smaller pages answer faster; larger ones need fewer requests.',
			},
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: [
					{ name: 'Modification Date', value: 'modified' },
					{ name: 'Name', value: 'name' },
					{ name: 'Owner', value: 'owner' },
					{ name: 'Size', value: 'size' },
					{ name: 'Views', value: 'views' },
				],
				default: 'modified',
			},
			{
				displayName: 'Sort Direction',
				name: 'sortDirection',
				type: 'options',
				options: [
					{ name: 'Ascending', value: 'ascending' },
					{ name: 'Descending', value: 'descending' },
				],
				default: 'descending',
			},
		],
	},
];

export interface ListSettings {
	fields: FormFields;
	max: number;
	pageSize: number;
}

/** Reads and checks Return All, Limit and the options; throws before any request on a bad value. */
export function listSettings(ctx: IExecuteFunctions, itemIndex: number): ListSettings {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as {
		accessRights?: boolean;
		pageSize?: number;
		sortBy?: SortBy;
		sortDirection?: 'ascending' | 'descending';
	};
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	let max = Number.POSITIVE_INFINITY;
	const pageSize = checkPageSize(options.pageSize ?? MAX_PAGE_SIZE);
	if (!returnAll) {
		max = Number(ctx.getNodeParameter('limit', itemIndex, 50));
		if (!Number.isInteger(max) || max < 1)
			throw new SearchInputError(
				'Limit must be a whole number of at least 1',
				'Or turn on Return All.',
			);
	}
	return {
		fields: {
			...sortFields(options.sortBy ?? 'modified', options.sortDirection ?? 'descending'),
			get_access_rights: options.accessRights ? true : undefined,
		},
		max,
		pageSize,
	};
}

/** Whether a resource locator holds anything (an optional folder left empty means "no folder"). */
export function locatorGiven(ctx: IExecuteFunctions, name: string, itemIndex: number): boolean {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as { value?: unknown } | string | undefined;
	const value = typeof raw === 'object' && raw !== null ? raw.value : raw;
	return String(value ?? '').trim() !== '';
}
