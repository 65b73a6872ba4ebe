import type { INodeProperties } from 'n8n-workflow';

import { FILE_LINK_REGEX, FOLDER_LINK_REGEX } from './links';

type LocatorOverrides = Partial<
	Pick<INodeProperties, 'displayName' | 'description' | 'required' | 'default'>
>;

export function folderLocator(name = 'folder', overrides: LocatorOverrides = {}): INodeProperties {
	return {
		displayName: 'Folder',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a folder...',
				typeOptions: { searchListMethod: 'searchFolders', searchable: true },
			},
			{
				displayName: 'By Link',
				name: 'url',
				type: 'string',
				placeholder: 'https://www.example.com/u/abc123',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: FOLDER_LINK_REGEX,
							errorMessage: 'Not a folder link (…/u/<hash>)',
						},
					},
				],
			},
			{
				displayName: 'By Hash',
				name: 'id',
				type: 'string',
				placeholder: 'ROOT or a folder hash',
			},
		],
		...overrides,
	};
}

export function fileLocator(name = 'file', overrides: LocatorOverrides = {}): INodeProperties {
	return {
		displayName: 'File',
		name,
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
		modes: [
			{
				displayName: 'By Hash',
				name: 'id',
				type: 'string',
				placeholder: 'A file hash, e.g. {{ $json.hash }}',
			},
			{
				displayName: 'By Link',
				name: 'url',
				type: 'string',
				placeholder: 'https://www.example.com/f/abc123',
				validation: [
					{
						type: 'regex',
						properties: { regex: FILE_LINK_REGEX, errorMessage: 'Not a file link (…/f/<hash>)' },
					},
				],
			},
		],
		...overrides,
	};
}
