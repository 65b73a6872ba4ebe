import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { CUSTOM_MODEL } from './fields';
import { listModels } from './transport';

/**
 * The Model list of both AI nodes: the service's listing when it answers one, and free entry always. A failure
 * (a wrong token, the service down, a wrong AI URL) is thrown, so n8n shows it in the list with its fix; only an
 * address with no listing at all leaves free entry alone, saying so.
 */
export const loadOptions = {
	async getModels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const listing = await listModels(this);
		const options = (listing.models ?? []).map((model) => {
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
				description: listing.models
					? 'A model offered to the account on request'
					: `${listing.unlisted}: enter the model ID. If a run then fails with 404 as well, check the AI URL of the credential.`,
			},
		];
	},
};
