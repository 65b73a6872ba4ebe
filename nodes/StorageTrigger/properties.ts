import type { INodeProperties } from 'n8n-workflow';

import { storageAuthentication } from '../shared/storage/auth-fields';
import { folderLocator } from '../shared/storage/locator-fields';
import { downloadContentFields } from '../shared/storage/download-fields';

export const DEFAULT_MAX_TRACKED = 10_000;
export { DEFAULT_MAX_DOWNLOAD_MB } from '../shared/storage/download-fields';

export const properties: INodeProperties[] = [
	storageAuthentication,
	{
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['fileCreated'],
		options: [
			{ name: 'File Created', value: 'fileCreated', description: 'A file was uploaded' },
			{
				name: 'File Deleted',
				value: 'fileDeleted',
				description: 'A file was deleted (or its folder was)',
			},
			{
				name: 'File Moved',
				value: 'fileMoved',
				description:
					'A file moved within the watched folder, into it (or was restored) or out of it',
			},
			{
				name: 'File Updated',
				value: 'fileUpdated',
				description: "A file's content was replaced or it was renamed",
			},
			{ name: 'Folder Created', value: 'folderCreated', description: 'A folder was created' },
		],
		description:
			"Each change is reported once, as one item with the event, the item's fields, its parent folder and its link",
	},
	{
		displayName:
			'Deleted and moved files are found by comparing with the previous poll, so the trigger keeps a list of every watched file and folder (about 60 bytes each) in the workflow. Above "Max Tracked Items" a poll fails with an error instead of silently missing changes: watch a smaller folder, raise the limit, or keep only created/updated events (which need only a cursor).',
		name: 'trackingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: ['fileDeleted', 'fileMoved'] } },
	},
	folderLocator('folder', {
		displayName: 'Watch Folder',
		description: 'The folder to watch; ROOT watches the whole account',
		default: { __rl: true, mode: 'list', value: 'ROOT', cachedResultName: 'ROOT' },
	}),
	{
		displayName: 'Include Subfolders',
		name: 'includeSubfolders',
		type: 'boolean',
		default: true,
		description:
			'Whether to watch every folder below the chosen one too (one tree request per poll, however many folders) or only its direct content. The tree\'s file nodes and date format are not shown in the documents: files are the nodes of Type "file", dates are read as YYYY-MM-DD HH:MM:SS UTC; turn this off to use the documented integer timestamps of the folder content.',
	},
	{
		displayName: 'Max Tracked Items',
		name: 'maxTrackedItems',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_TRACKED,
		description:
			'Most files and folders kept for deleted/moved detection; a larger watched folder makes the poll fail with an explanation',
		displayOptions: { show: { events: ['fileDeleted', 'fileMoved'] } },
	},
	...downloadContentFields({
		displayName: 'Download File Content',
		description:
			"Whether to add the file's content as binary data to created and updated file events",
	}),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'File Extensions',
				name: 'extensions',
				type: 'string',
				default: '',
				placeholder: 'pdf, docx',
				description: 'Only files with one of these extensions (comma-separated, case-insensitive)',
			},
			{
				displayName: 'Name Pattern',
				name: 'namePattern',
				type: 'string',
				default: '',
				placeholder: 'invoice-*',
				description:
					'Only items whose name matches; * stands for any characters, ? for one (case-insensitive)',
			},
		],
	},
];
