import type { INodeProperties } from 'n8n-workflow';

/**
 * Options that apply to every request of the item, whatever the operation; the transport reads them by
 * name (`requestOptions.timeout`), so a node only adds this field to its properties, last. The
 * default shown (120) is the transport's DEFAULT_TIMEOUT_MS.
 */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 120,
			description:
				'Seconds to wait for each answer of the service. Reads that time out are asked again; a write that times out is checked, never blindly sent again. File transfers are not cut while data flows.',
		},
	],
};
