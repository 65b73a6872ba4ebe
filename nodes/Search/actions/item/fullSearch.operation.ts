import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { searchItems } from '../../../shared/search/client';
import {
	buildSearchJson,
	parseSearchJson,
	SearchInputError,
	validateSearchJson,
	type SearchJson,
} from '../../../shared/search/search-json';
import { storageAccount } from '../../../shared/storage/client';
import { locate, resolveHash, type Located } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { listFields, listSettings, locatorGiven } from './common';
import { criteriaField, criteriaNotice, OTHER } from './criteria';

const usingFields = { defineSearch: ['fields'] };

/** A request parameter beside search_json, applying to the section This Folder. */
const noSubfolders: INodeProperties = {
	displayName: 'No Subfolders',
	name: 'noSubfolders',
	type: 'boolean',
	default: false,
	description:
		'Whether to search only directly in the folder of the section "This Folder", not in its subfolders',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Define Search',
		name: 'defineSearch',
		type: 'options',
		options: [
			{
				name: 'Using Fields',
				value: 'fields',
				description: 'Build the search from the fields below',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'Send your own search_json object (checked before sending)',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Search JSON',
		name: 'searchJson',
		type: 'json',
		default:
			'{\n  "Mode": "simple",\n  "Query": "invoice",\n  "Types": {},\n  "Sections": { "MY": true }\n}',
		required: true,
		description:
			"The search_json object: Mode, Query, Types, Sections, ThisFolder, Operator, Criteria (see the service's search documentation)",
		displayOptions: { show: { defineSearch: ['json'] } },
	},
	{
		displayName:
			'Accounts without a storage subscription get a simpler search: the query is matched as one piece of text, criteria rows are not applied and the Deleted section is ignored.',
		name: 'subscriberNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: usingFields },
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		options: [
			{
				name: 'Simple',
				value: 'simple',
				description: 'Match the query in names, filtered by type',
			},
			{
				name: 'Advanced',
				value: 'advanced',
				description: 'Also combine criteria rows (name, extension, size, date…) with AND or OR',
			},
		],
		default: 'simple',
		displayOptions: { show: usingFields },
	},
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		placeholder: 'invoice',
		description:
			'Words to look for in names (at least 2 characters). Required in simple mode, optional in advanced mode.',
		displayOptions: { show: usingFields },
	},
	{
		displayName: 'Types',
		name: 'types',
		type: 'multiOptions',
		options: [
			{ name: 'Documents', value: 'DOCUMENTS' },
			{ name: 'Files (Any Kind)', value: 'FILES' },
			{ name: 'Folders', value: 'FOLDERS' },
			{ name: 'Images', value: 'IMAGES' },
			{ name: 'Music', value: 'MUSIC' },
			{ name: 'Video', value: 'VIDEO' },
		],
		default: [],
		description: 'Kinds of results to include. None selected searches every type.',
		displayOptions: { show: usingFields },
	},
	{
		displayName: 'Sections',
		name: 'sections',
		type: 'multiOptions',
		options: [
			{
				name: 'Deleted',
				value: 'DELETED',
				description: 'Deleted items (storage subscribers only)',
			},
			{ name: 'My Files', value: 'MY' },
			{ name: 'Shared With Me', value: 'SHARED_WITH_ME' },
			{ name: 'Shared With Me by My Organisation Only', value: 'SHARED_WITH_ME_ONLY_ORGANIZATION' },
			{ name: 'This Folder', value: 'THIS_FOLDER', description: 'One folder, chosen below' },
		],
		default: ['MY'],
		description: 'Where to search; choose at least one',
		displayOptions: { show: usingFields },
	},
	{
		...folderLocator('thisFolder', {
			displayName: 'This Folder',
			required: false,
			description: 'The folder searched by the section "This Folder"',
		}),
		displayOptions: { show: { ...usingFields, sections: ['THIS_FOLDER'] } },
	},
	{ ...noSubfolders, displayOptions: { show: { ...usingFields, sections: ['THIS_FOLDER'] } } },
	{ ...noSubfolders, displayOptions: { show: { defineSearch: ['json'] } } },
	{
		displayName: 'Operator',
		name: 'operator',
		type: 'options',
		options: [
			{ name: 'AND (Every Row Must Match)', value: 'AND' },
			{ name: 'OR (Any Row May Match)', value: 'OR' },
		],
		default: 'AND',
		displayOptions: { show: { ...usingFields, mode: ['advanced'] } },
	},
	{ ...criteriaNotice, displayOptions: { show: { ...usingFields, mode: ['advanced'] } } },
	{ ...criteriaField, displayOptions: { show: { ...usingFields, mode: ['advanced'] } } },
	...listFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['item'], operation: ['fullSearch'] } },
	properties,
);

interface CriteriaRow {
	field?: string;
	otherField?: string;
	operator?: string;
	otherOperator?: string;
	query?: string;
	additionalParam?: string;
}

/** A row as the service gets it: "Other" replaced by what the user typed. */
function criterionOf(row: CriteriaRow) {
	const typed = (choice: string | undefined, other: string | undefined) =>
		choice === OTHER ? String(other ?? '').trim() : choice;
	return {
		field: typed(row.field, row.otherField),
		operator: typed(row.operator, row.otherOperator),
		query: row.query,
		additionalParam: row.additionalParam,
	};
}

/** search_json from the fields; This Folder is checked as given and resolved only once everything else is valid. */
function fromFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { json: SearchJson; folder?: Located } {
	const sections = ctx.getNodeParameter('sections', itemIndex, []) as string[];
	const mode = ctx.getNodeParameter('mode', itemIndex, 'simple') as 'simple' | 'advanced';
	const advanced = mode === 'advanced';
	const built = buildSearchJson({
		mode,
		query: String(ctx.getNodeParameter('query', itemIndex, '') ?? ''),
		types: ctx.getNodeParameter('types', itemIndex, []) as string[],
		sections,
		thisFolder: '',
		operator: advanced ? (ctx.getNodeParameter('operator', itemIndex, 'AND') as string) : undefined,
		criteria: advanced
			? (
					(ctx.getNodeParameter('criteria', itemIndex, {}) as { rows?: CriteriaRow[] }).rows ?? []
				).map(criterionOf)
			: undefined,
	});
	if (!sections.includes('THIS_FOLDER')) return { json: validateSearchJson(built) };
	if (!locatorGiven(ctx, 'thisFolder', itemIndex)) {
		throw new SearchInputError(
			'The section "This Folder" needs a folder',
			'Choose the folder in "This Folder", or remove that section.',
		);
	}
	const folder = locate(ctx, 'thisFolder', 'folder', itemIndex);
	built.ThisFolder = 'hash' in folder ? folder.hash : 'ROOT';
	return { json: validateSearchJson(built), folder };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const spec: { json: SearchJson; folder?: Located } =
		this.getNodeParameter('defineSearch', itemIndex, 'fields') === 'json'
			? { json: parseSearchJson(this.getNodeParameter('searchJson', itemIndex, '')) }
			: fromFields(this, itemIndex);
	const settings = listSettings(this, itemIndex);
	const account = await storageAccount(this, itemIndex);
	const json: IDataObject = { ...spec.json };
	if (spec.folder && !('hash' in spec.folder))
		json.ThisFolder = await resolveHash(this, account, spec.folder, 'folder', itemIndex);
	const thisFolder = Boolean((json.Sections as IDataObject).THIS_FOLDER);
	const rows = await searchItems(this, account, {
		fields: {
			search_json: JSON.stringify(json),
			NoSubfolders:
				thisFolder && this.getNodeParameter('noSubfolders', itemIndex, false) ? true : undefined,
			...settings.fields,
		},
		max: settings.max,
		pageSize: settings.pageSize,
		itemIndex,
	});
	return rows.map((row) => ({ json: row }));
}
