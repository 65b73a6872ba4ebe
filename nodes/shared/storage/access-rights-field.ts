import type { INodeProperties } from 'n8n-workflow';

/** The `get_access_rights` switch, worded once for every operation whose answer can carry `access_rights`. */
export const accessRightsField: INodeProperties = {
	displayName: 'Include Access Rights',
	name: 'accessRights',
	type: 'boolean',
	default: false,
	description:
		'Whether to add what this account may do with each item: view, edit, delete, download, and for folders add',
};
