import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface UploadOptions {
	fileName?: string;
	uploadKey?: string;
	watermarkText?: string;
	watermarkPosition?: string;
	watermarkColor?: string;
}

export const uploadOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description:
				'Name to store the file under; by default the binary\'s own file name. The service adds " (1)" when the name exists.',
		},
		{
			displayName: 'Upload Key',
			name: 'uploadKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The folder's upload (add-files) key. With it the upload needs no credential: set Authentication to None to upload into someone else's folder.",
		},
		{
			displayName: 'Watermark Color',
			name: 'watermarkColor',
			type: 'color',
			default: '#F0FF3C',
			description: 'Colour of the watermark text',
		},
		{
			displayName: 'Watermark Position',
			name: 'watermarkPosition',
			type: 'options',
			default: 'BOTTOM_RIGHT',
			options: [
				{ name: 'Bottom Left', value: 'BOTTOM_LEFT' },
				{ name: 'Bottom Right', value: 'BOTTOM_RIGHT' },
				{ name: 'Top Left', value: 'TOP_LEFT' },
				{ name: 'Top Right', value: 'TOP_RIGHT' },
			],
		},
		{
			displayName: 'Watermark Text',
			name: 'watermarkText',
			type: 'string',
			default: '',
			description: 'Text stamped onto JPG and PNG images',
		},
	],
};

const POSITIONS = ['TOP_LEFT', 'TOP_RIGHT', 'BOTTOM_LEFT', 'BOTTOM_RIGHT'];

/** Watermark fields for the upload form; checked first, since only JPG and PNG images take them. */
export function watermarkFields(
	ctx: IExecuteFunctions,
	options: UploadOptions,
	fileName: string,
	itemIndex: number,
) {
	const text = options.watermarkText?.trim();
	if (!text) return {};
	if (!/\.(jpe?g|png)$/i.test(fileName)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`A watermark needs a JPG or PNG image, not "${fileName}"`,
			{
				itemIndex,
				description: 'Remove the watermark options for other file types.',
			},
		);
	}
	const position = options.watermarkPosition ?? 'BOTTOM_RIGHT';
	if (!POSITIONS.includes(position)) {
		throw new NodeOperationError(ctx.getNode(), `Unknown watermark position "${position}"`, {
			itemIndex,
			description: `Use one of ${POSITIONS.join(', ')}.`,
		});
	}
	const color = (options.watermarkColor ?? 'F0FF3C').replace(/^#/, '').toUpperCase();
	if (!/^[0-9A-F]{6}$/.test(color)) {
		throw new NodeOperationError(ctx.getNode(), `"${options.watermarkColor}" is not a colour`, {
			itemIndex,
			description: 'Use a hex colour such as F0FF3C.',
		});
	}
	return { watermark_text: text, watermark_position: position, watermark_color: color };
}
