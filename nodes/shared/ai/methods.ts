import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { CUSTOM_MODEL } from './fields';
import { listModels } from './transport';

/** The Model list of both AI nodes: the service's listing when it answers one, and free entry always. */
export const loadOptions = {
	async getModels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const listed = (await listModels(this)) ?? [];
		const options = listed.map((model) => {
			const facts = [model.family, model.size, model.capabilities?.join(', ')]
				.filter(Boolean)
				.join('; ');
			return {
				name: model.id,
				value: model.id,
				description: facts
					? `${model.id}: ${facts}`
					: `${model.id} (from the service's model listing)`,
			};
		});
		return [
			...options,
			{
				name: 'Enter ID',
				value: CUSTOM_MODEL,
				description: listed.length
					? 'A model offered to the account on request'
					: 'The service lists no models here: enter the model ID',
			},
		];
	},
};
