import type { INodeProperties } from 'n8n-workflow';

import { documentLocator } from '../shared/dms/descriptions';

export const DEFAULT_MAX_TRACKED = 10_000;

const optionalLocator = (
	section: 'project_2' | 'client',
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	...documentLocator(section, name),
	displayName,
	required: false,
	description,
});

const maxTrackedField = (show: Record<string, string[]>): INodeProperties => ({
	displayName: 'Max Tracked Documents',
	name: 'maxTracked',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_MAX_TRACKED,
	description:
		'Most documents kept for change detection; a larger filtered register makes the poll fail with an explanation',
	displayOptions: { show },
});

export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Task', value: 'task' },
			{ name: 'Contact Person', value: 'contactPerson' },
		],
		default: 'task',
	},
	{
		displayName: 'Trigger On',
		name: 'taskEvents',
		type: 'multiOptions',
		required: true,
		default: ['created'],
		options: [
			{ name: 'Task Created', value: 'created', description: 'A task was created' },
			{
				name: 'Task Responsible Changed',
				value: 'responsibleChanged',
				description: "A task's responsible user changed (from → to)",
			},
			{
				name: 'Task Status Changed',
				value: 'statusChanged',
				description: "A task's status changed (from → to)",
			},
			{
				name: 'Task Updated',
				value: 'updated',
				description:
					'Any listed field of a task changed; the item lists each changed field with its old and new value',
			},
		],
		displayOptions: { show: { resource: ['task'] } },
		description: 'Each change is reported once, as one item per event',
	},
	{
		displayName: 'Trigger On',
		name: 'contactEvents',
		type: 'multiOptions',
		required: true,
		default: ['created'],
		options: [
			{ name: 'Contact Person Created', value: 'created' },
			{
				name: 'Contact Person Updated',
				value: 'updated',
				description: 'The item lists each changed field with its old and new value',
			},
		],
		displayOptions: { show: { resource: ['contactPerson'] } },
	},
	{
		displayName:
			'Events other than Created compare every listed document with the previous poll, so each poll reads the whole filtered register (one request per 200 documents) and the workflow keeps a small snapshot of each. Above "Max Tracked Documents" a poll fails with an error instead of missing changes. Fields the list omits (the HTML description) are not compared.',
		name: 'trackingNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { resource: ['task'], taskEvents: ['updated', 'statusChanged', 'responsibleChanged'] },
		},
	},
	{
		displayName: 'To Status Names or IDs',
		name: 'toStatuses',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTaskStatuses' },
		default: [],
		displayOptions: { show: { resource: ['task'], taskEvents: ['statusChanged'] } },
		description:
			'Report a status change only when the task moved into one of these statuses; empty reports every change. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Filters',
		name: 'taskFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['task'] } },
		options: [
			optionalLocator('project_2', 'project', 'Project', 'Only tasks of this project'),
			{
				displayName: 'Status Names or IDs',
				name: 'statuses',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getTaskStatuses' },
				default: [],
				description:
					'Only tasks currently in one of these statuses. To react to tasks moving into a status use "To Status" instead: a task entering the filtered set has no previous state. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
	{
		displayName: 'Filters',
		name: 'contactFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['contactPerson'] } },
		options: [
			optionalLocator('client', 'company', 'Company', 'Only contact persons of this client'),
			{
				displayName: 'Group Names or IDs',
				name: 'groups',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getContactGroups' },
				default: [],
				description:
					'Only contact persons in one of these groups (the register\'s multi_dropdown_group field). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
	maxTrackedField({
		resource: ['task'],
		taskEvents: ['updated', 'statusChanged', 'responsibleChanged'],
	}),
	maxTrackedField({ resource: ['contactPerson'], contactEvents: ['updated'] }),
];
