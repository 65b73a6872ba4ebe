import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	signingPageHtml,
	type SigningFormat,
	type SigningTarget,
} from '../../../shared/esignature/signing-page';
import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { fileHashParam, folderHashParam, locate } from '../../../shared/storage/locator';
import { fileLocator, folderLocator } from '../../../shared/storage/locator-fields';
import { isLoopbackHost, joinUrl } from '../../../shared/transport';
import { pageOptions, readFormSettings, signingFormSettings } from './signing-page.fields';

const properties: INodeProperties[] = [
	{
		displayName:
			'Serve the page with a Respond to Webhook node (Respond With: Text, body {{ $json.html }}, header Content-Type: text/html). It contains the key that lets the form sign the file: show it only to the signer.',
		name: 'pageNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Sign',
		name: 'target',
		type: 'options',
		options: [
			{ name: 'One File', value: 'file' },
			{
				name: 'Files of a Folder',
				value: 'folder',
				description: 'Every file in the folder, signed together or each separately',
			},
		],
		default: 'file',
	},
	{
		...fileLocator('file', { description: 'The file to sign' }),
		displayOptions: { show: { target: ['file'] } },
	},
	{
		displayName: 'File Delete Key',
		name: 'fileDeleteKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			"The file's delete key (from the upload's output). Leave empty to look it up with the credential.",
		displayOptions: { show: { target: ['file'] } },
	},
	{
		...folderLocator('folder', { description: 'The folder whose files to sign' }),
		displayOptions: { show: { target: ['folder'] } },
	},
	{
		displayName: 'Folder Edit Key',
		name: 'folderEditKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			"The folder's edit key (from Create Folder's output). Leave empty to look it up with the credential.",
		displayOptions: { show: { target: ['folder'] } },
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://n8n.example.com/webhook/esignature-result',
		description:
			"Production URL of a Webhook node (POST) that receives the form's results as JSON: event (on_signing_finished or on_form_closed), reference and the result fields",
	},
	signingFormSettings,
	pageOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['signature'], operation: ['createSigningPage'] } },
	properties,
);

function callbackUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = String(ctx.getNodeParameter('callbackUrl', itemIndex, '') ?? '').trim();
	const fail = (message: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			itemIndex,
			description:
				"Use the production URL of a Webhook node (HTTP Method POST), e.g. https://n8n.example.com/webhook/esignature-result. Plain http is accepted only for localhost, because the result carries the signed file's keys.",
		});
	if (!raw) throw fail('No callback URL given');
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw fail(`"${raw.slice(0, 100)}" is not a URL`);
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
		throw fail(`The callback URL must use https (got ${url.protocol}//${url.host})`);
	}
	return url.toString();
}

/** The capability key the form needs: given, or read from the item's info with the credential. */
async function capabilityKey(
	ctx: IExecuteFunctions,
	kind: 'file' | 'folder',
	hash: string,
	given: string,
	itemIndex: number,
): Promise<string> {
	if (given) return given;
	const account = await storageAccount(ctx, itemIndex);
	requireAccount(ctx, account, itemIndex);
	const action = kind === 'file' ? 'get_file_info' : 'get_folder_info';
	const { body } = await v2<IDataObject>(
		ctx,
		account,
		action,
		{ [`${kind}_hash`]: hash },
		{ itemIndex },
	);
	const key = typeof body?.delete_key === 'string' ? body.delete_key : '';
	if (key) return key;
	throw new NodeOperationError(
		ctx.getNode(),
		`This account may not ${kind === 'file' ? 'edit' : 'edit the files of'} this ${kind}, so the form cannot sign it`,
		{
			itemIndex,
			description: `The service gave no ${kind === 'file' ? 'delete' : 'edit'} key. Enter the key from the upload or Create Folder output, or use the owner's credential.`,
		},
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const kind = this.getNodeParameter('target', itemIndex, 'file') as 'file' | 'folder';
	const callback = callbackUrl(this, itemIndex);
	const settings = readFormSettings(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		title?: string;
		reference?: string;
		binary?: boolean;
		binaryPropertyName?: string;
	};
	locate(this, kind, kind, itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const hash =
		kind === 'file'
			? await fileHashParam(this, account, 'file', itemIndex)
			: await folderHashParam(this, account, 'folder', itemIndex);
	const givenKey = String(
		this.getNodeParameter(kind === 'file' ? 'fileDeleteKey' : 'folderEditKey', itemIndex, '') ?? '',
	).trim();
	const key = await capabilityKey(this, kind, hash, givenKey, itemIndex);
	const target: SigningTarget =
		kind === 'file' ? { kind, hash, deleteKey: key } : { kind, hash, editKey: key };
	const html = signingPageHtml({
		formScriptUrl: joinUrl(account.baseUrl, 'esignature/form.js'),
		target,
		callbackUrl: callback,
		settings,
		title: options.title?.trim() || 'Sign the document',
		reference: options.reference || undefined,
	});
	const json: IDataObject = {
		html,
		[kind === 'file' ? 'file_hash' : 'folder_hash']: hash,
		callback_url: callback,
		formats: settings.formats as SigningFormat[],
		...(options.reference ? { reference: options.reference } : {}),
	};
	if (!options.binary) return [{ json }];
	const binary = await this.helpers.prepareBinaryData(
		Buffer.from(html, 'utf8'),
		'signing-page.html',
		'text/html',
	);
	return [{ json, binary: { [options.binaryPropertyName?.trim() || 'data']: binary } }];
}
