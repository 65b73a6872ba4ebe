import type { INodeProperties } from 'n8n-workflow';

/** Files larger than this are reported without their content unless the user raises the limit. */
export const DEFAULT_MAX_DOWNLOAD_MB = 50;

/**
 * The triggers' "download the file with the event" switch, its size cap and the binary field, worded once;
 * each trigger names the switch and says which events carry the content.
 */
export function downloadContentFields(download: {
	displayName: string;
	description: string;
}): INodeProperties[] {
	return [
		{ ...download, name: 'download', type: 'boolean', default: false },
		{
			displayName: 'Max File Size (MB)',
			name: 'maxDownloadMb',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_DOWNLOAD_MB,
			description:
				'Larger files are reported without content (the item says so in "download_skipped")',
			displayOptions: { show: { download: [true] } },
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the output binary field to put the file in',
			displayOptions: { show: { download: [true] } },
		},
	];
}
