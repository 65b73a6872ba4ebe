import type { INodeProperties } from 'n8n-workflow';

import { storageAuthentication } from '../shared/storage/auth-fields';
import { folderLocator } from '../shared/storage/locator-fields';
import { downloadContentFields } from '../shared/storage/download-fields';

export const DEFAULT_MAX_FILES = 500;
export { DEFAULT_MAX_DOWNLOAD_MB } from '../shared/storage/download-fields';

export const properties: INodeProperties[] = [
	storageAuthentication,
	{
		displayName: 'Watch',
		name: 'watch',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Files in a Folder',
				value: 'folder',
				description: 'Every file in a folder (and optionally its subfolders)',
			},
			{
				name: 'A List of Files',
				value: 'files',
				description: 'Only the files given by hash or link',
			},
		],
		default: 'folder',
	},
	{
		...folderLocator('folder', {
			displayName: 'Watch Folder',
			description: 'The folder whose files to watch; ROOT watches the whole account',
			default: { __rl: true, mode: 'list', value: 'ROOT', cachedResultName: 'ROOT' },
		}),
		displayOptions: { show: { watch: ['folder'] } },
	},
	{
		displayName: 'Include Subfolders',
		name: 'includeSubfolders',
		type: 'boolean',
		default: true,
		description: 'Whether to watch the files of every folder below the chosen one too',
		displayOptions: { show: { watch: ['folder'] } },
	},
	{
		displayName: 'Files',
		name: 'files',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'abc123..., https://<web host>/f/<hash>',
		description: 'File hashes or file links, separated by commas or new lines',
		displayOptions: { show: { watch: ['files'] } },
	},
	{
		displayName:
			'Each poll lists the folder once and asks for the new signatures of every watched file (one request per file, answers limited by the last signing time seen). Above "Max Watched Files" a poll fails with an error instead of missing signatures. A file that appears in the watched folder reports the signatures it already carries.',
		name: 'costNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Max Watched Files',
		name: 'maxFiles',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_FILES,
		description:
			'Most files watched; more makes the poll fail with an explanation (watch a smaller folder or raise the limit)',
	},
	...downloadContentFields({
		displayName: 'Download Signed File',
		description: "Whether to add the signed file's content as binary data to each signature event",
	}),
];
