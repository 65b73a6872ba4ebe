import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as checkExistence from './checkExistence.operation';
import * as create from './create.operation';
import * as createAnonymous from './createAnonymous.operation';
import * as createPath from './createPath.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getKeys from './getKeys.operation';
import * as getTree from './getTree.operation';
import * as list from './list.operation';
import * as listPublic from './listPublic.operation';
import * as listRoot from './listRoot.operation';
import * as rename from './rename.operation';
import * as restore from './restore.operation';

export const operations = {
	checkExistence,
	create,
	createAnonymous,
	createPath,
	delete: del,
	get,
	getKeys,
	getTree,
	list,
	listPublic,
	listRoot,
	rename,
	restore,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['folder'] } },
		options: optionsFor(operations, [
			{
				name: 'Check Existence',
				value: 'checkExistence',
				description: 'Check which folder hashes exist in this account',
				action: 'Check folders exist',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a folder',
				action: 'Create a folder',
			},
			{
				name: 'Create Anonymous',
				value: 'createAnonymous',
				description: 'Create a folder that belongs to no account (deleted after about a month)',
				action: 'Create an anonymous folder',
			},
			{
				name: 'Create Path',
				value: 'createPath',
				description:
					'Create every missing folder of a path like Invoices/2026/11 and return the last one',
				action: 'Create a folder path',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a folder and everything in it',
				action: 'Delete a folder',
			},
			{ name: 'Get', value: 'get', description: "Get a folder's details", action: 'Get a folder' },
			{
				name: 'Get Keys',
				value: 'getKeys',
				description: "Get a folder's upload and edit keys",
				action: 'Get folder keys',
			},
			{
				name: 'Get Tree',
				value: 'getTree',
				description: 'Get a folder and all its subfolders in one call',
				action: 'Get a folder tree',
			},
			{
				name: 'List Content',
				value: 'list',
				description: 'List the files and subfolders of a folder',
				action: 'List folder content',
			},
			{
				name: 'List Public Folder',
				value: 'listPublic',
				description: 'List a shared (LINK or PUBLIC) folder without an account',
				action: 'List a public folder',
			},
			{
				name: 'List ROOT',
				value: 'listRoot',
				description: 'List the folders in ROOT with their views and sizes',
				action: 'List ROOT folders',
			},
			{
				name: 'Rename',
				value: 'rename',
				description: 'Rename a folder',
				action: 'Rename a folder',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Restore a deleted folder (PRO, BUSINESS, ENTERPRISE)',
				action: 'Restore a folder',
			},
		]),
		default: 'list',
	},
	...checkExistence.description,
	...create.description,
	...createAnonymous.description,
	...createPath.description,
	...del.description,
	...get.description,
	...getKeys.description,
	...getTree.description,
	...list.description,
	...listPublic.description,
	...listRoot.description,
	...rename.description,
	...restore.description,
];
