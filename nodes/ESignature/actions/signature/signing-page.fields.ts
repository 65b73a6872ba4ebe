import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	SIGNING_FORMATS,
	type SigningFormat,
	type SigningPageSettings,
} from '../../../shared/esignature/signing-page';

/** The EsignatureForm settings of the spec, as node fields. */
export const signingFormSettings: INodeProperties = {
	displayName: 'Form Settings',
	name: 'formSettings',
	type: 'collection',
	placeholder: 'Add Setting',
	default: {},
	options: [
		{
			displayName: 'Allowed Formats',
			name: 'formats',
			type: 'multiOptions',
			options: [
				{ name: 'ASiC-E', value: 'asice' },
				{ name: 'EDOC', value: 'edoc' },
				{ name: 'PDF', value: 'pdf' },
			],
			default: ['edoc', 'pdf', 'asice'],
			description: 'Signing formats the signer may choose from (at least one)',
		},
		{
			displayName: 'Default Format',
			name: 'defaultFormat',
			type: 'options',
			options: [
				{ name: 'ASiC-E', value: 'asice' },
				{ name: 'EDOC', value: 'edoc' },
				{ name: 'Form Default', value: '' },
				{ name: 'PDF', value: 'pdf' },
			],
			default: '',
			description: 'The format preselected in the form; it must be one of the allowed formats',
		},
		{
			displayName: 'Open Mobile Signing in New Tab',
			name: 'mobileNewTab',
			type: 'boolean',
			default: true,
			description:
				"Whether mobile signing opens the provider's page in a new tab instead of leaving this page (recommended: n8n serves webhook pages in a sandbox that blocks leaving them without a click)",
		},
		{
			displayName: 'Show Existing Signatures',
			name: 'validateSignatures',
			type: 'boolean',
			default: false,
			description:
				'Whether the form checks and shows the signatures a file already has when it opens',
		},
		{
			displayName: 'Sign Files Separately by Default',
			name: 'separateByDefault',
			type: 'boolean',
			default: false,
			description:
				'Whether the files of a folder are signed each in its own file (otherwise all in one signed file)',
		},
		{
			displayName: 'Signer May Choose Separate or Together',
			name: 'allowSelectSeparate',
			type: 'boolean',
			default: false,
			description:
				'Whether the signer may choose between one signed file for all files and one per file',
		},
	],
};

export const pageOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Page Title',
			name: 'title',
			type: 'string',
			default: 'Sign the document',
		},
		{
			displayName: 'Put Page in Binary Field',
			name: 'binary',
			type: 'boolean',
			default: false,
			description:
				"Whether to also output the page as an HTML file (for Respond to Webhook's Binary File mode, or to save it)",
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put the page in',
			displayOptions: { show: { binary: [true] } },
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description:
				'Any text (an order number, a request ID) sent back with every callback, to match results to requests',
		},
	],
};

export function readFormSettings(ctx: IExecuteFunctions, itemIndex: number): SigningPageSettings {
	const raw = ctx.getNodeParameter('formSettings', itemIndex, {}) as {
		formats?: string[];
		defaultFormat?: string;
		mobileNewTab?: boolean;
		validateSignatures?: boolean;
		separateByDefault?: boolean;
		allowSelectSeparate?: boolean;
	};
	const formats = (raw.formats ?? SIGNING_FORMATS).filter((format): format is SigningFormat =>
		SIGNING_FORMATS.includes(format as SigningFormat),
	);
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	if (!formats.length)
		throw fail(
			'No signing format allowed',
			'Choose at least one of EDOC, PDF and ASiC-E in Allowed Formats.',
		);
	const defaultFormat = raw.defaultFormat ? (raw.defaultFormat as SigningFormat) : undefined;
	if (defaultFormat && !formats.includes(defaultFormat)) {
		throw fail(
			`The default format ${defaultFormat} is not among the allowed formats`,
			'Allow it, or choose another default format.',
		);
	}
	return {
		formats,
		defaultFormat,
		validateSignatures: raw.validateSignatures ?? false,
		allowSelectSeparate: raw.allowSelectSeparate ?? false,
		separateByDefault: raw.separateByDefault ?? false,
		mobileNewTab: raw.mobileNewTab ?? true,
	};
}
