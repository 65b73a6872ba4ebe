import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/**
 * Test-only stand-in for n8n's Set / Code nodes: outputs the JSON items given in its `items` parameter,
 * once per run (not once per input item), each paired to the first input item.
 */
export class JsonItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'JSON Items (test)',
		name: 'engine-test.jsonItems',
		group: ['transform'],
		version: 1,
		description: 'Emits the given JSON items',
		defaults: { name: 'JSON Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}
