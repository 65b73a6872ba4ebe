import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

/**
 * Stand-in for n8n-nodes-base's Manual Trigger, under the same type name so workflows read like n8n's:
 * in manual mode the engine calls `trigger()` and runs `manualTriggerFunction`, which emits one empty item.
 */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'When clicking "Execute workflow"',
		name: 'n8n-nodes-base.manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		defaults: { name: 'When clicking "Execute workflow"' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}
