import type { INodeProperties } from 'n8n-workflow';

import { SECTION_LABEL, type Section } from './types';
import { returnAllFields } from '../node/list-fields';

/** Node resource value → DMS register. */
export const RESOURCE_SECTION: Record<string, Section> = {
	task: 'task',
	project: 'project_2',
	client: 'client',
	contactPerson: 'contact_person',
};

export const SEARCH_METHOD: Record<Section, string> = {
	task: 'searchTasks',
	project_2: 'searchProjects',
	client: 'searchClients',
	contact_person: 'searchContactPersons',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function documentLocator(
	section: Section,
	name: string,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	const label = SECTION_LABEL[section].one;
	return {
		displayName: capitalised(label),
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${label}, picked from the list (newest first) or given by its numeric ID`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${label}...`,
				typeOptions: { searchListMethod: SEARCH_METHOD[section], searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 4711',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'Not a numeric ID' },
					},
				],
			},
		],
		...overrides,
	};
}

export function fieldsMapper(
	section: Section,
	mode: 'create' | 'update',
	dependsOn: string[],
): INodeProperties {
	const many = SECTION_LABEL[section].many;
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: mode === 'create',
		description: `The fields this organisation declares for ${many} (from Get Fields)`,
		typeOptions: {
			loadOptionsDependsOn: dependsOn,
			resourceMapper: {
				resourceMapperMethod: mode === 'create' ? 'getCreateFields' : 'getUpdateFields',
				mode: 'add',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: mode === 'create',
				multiKeyMatch: false,
				supportAutoMap: true,
				noFieldsError: `No writable fields are declared for ${many}`,
			},
		},
	};
}

export const clearFieldsOption: INodeProperties = {
	displayName: 'Clear Field Names or IDs',
	name: 'clearFields',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getClearableFields' },
	default: [],
	description:
		'Optional fields to empty (set to nothing). Empty mapper fields are left unchanged, so use this to remove a value. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Checks that would need rights the write does not need are skipped: say so where the values are entered. */
export const uncheckedNotice: INodeProperties = {
	displayName:
		"Values are checked before the write. If this user's group may not read a related register (the service demands write permission even for reading), the IDs pointing into it are sent unchecked and a refusal of the service names them.",
	name: 'uncheckedNotice',
	type: 'notice',
	default: '',
};

/** How a cleared field is sent is the pack's choice: the documents show no way to empty a field. */
export const clearFieldsNotice: INodeProperties = {
	displayName:
		'The documents do not say how to empty a field. The node sends null for a single value and [] for a list (a list field is replaced by the array given). If the service keeps the old value, clear it in the web interface.',
	name: 'clearFieldsNotice',
	type: 'notice',
	default: '',
};

export function listProperties(section: Section): INodeProperties[] {
	const many = SECTION_LABEL[section].many;
	return [
		...returnAllFields({ returnAllDefault: false }),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'fixedCollection',
			placeholder: 'Add Filter',
			typeOptions: { multipleValues: true },
			default: {},
			description: `Only ${many} matching every filter. Several values of one field match any of them; different fields must all match.`,
			options: [
				{
					displayName: 'Condition',
					name: 'conditions',
					values: [
						{
							displayName: 'Field Name or ID',
							name: 'field',
							type: 'options',
							typeOptions: { loadOptionsMethod: 'getFilterFields' },
							default: '',
							description:
								'A field the organisation allows filtering on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						},
						{
							displayName: 'Value Names or IDs',
							name: 'values',
							type: 'multiOptions',
							typeOptions: {
								loadOptionsMethod: 'getFilterValues',
								loadOptionsDependsOn: ['&field'],
							},
							default: [],
							description:
								'Values to match (any of them). For text or date fields, or to pass IDs, use an expression returning a list or comma-separated text. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						},
					],
				},
			],
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Include HTML Fields',
					name: 'fullDocuments',
					type: 'boolean',
					default: false,
					description: `Whether to read each result in full, because lists leave out HTML fields such as descriptions. Costs one extra request per ${SECTION_LABEL[section].one}.`,
				},
				{
					displayName: 'Parallel Requests',
					name: 'concurrency',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 8 },
					default: 1,
					description:
						'How many pages (or full documents) to fetch at once after the first page. Higher is faster for long lists; rate limits (429) are still honoured with back-off.',
				},
			],
		},
	];
}
