import type { INodeProperties } from 'n8n-workflow';

const returnAll: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: true,
	description: 'Whether to return all results or only up to a given limit',
};

const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/** n8n's Return All / Limit pair for list operations; Return All is off by default where "all" can be large. */
export function returnAllFields(options: { returnAllDefault?: boolean } = {}): INodeProperties[] {
	return [{ ...returnAll, default: options.returnAllDefault ?? true }, limit];
}
