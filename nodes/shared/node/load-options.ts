import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { toNodeError } from './node-error';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group's methods take their own arguments
type LoadMethod = (this: ILoadOptionsFunctions, ...args: any[]) => Promise<unknown>;

/**
 * A node's list-search, load-options or resource-mapping methods, each with its failures turned into n8n's errors
 * by `toNodeError`: they run outside the router, which does that for the operations, and n8n shows anything else
 * as a generic error without the cause's description.
 */
export function convertingErrors<Methods extends Record<string, LoadMethod>>(
	methods: Methods,
): Methods {
	const converted: Record<string, LoadMethod> = {};
	for (const [name, method] of Object.entries(methods))
		converted[name] = async function (this: ILoadOptionsFunctions, ...args: unknown[]) {
			try {
				return await method.apply(this, args);
			} catch (error) {
				throw toNodeError(this.getNode(), error);
			}
		};
	return converted as Methods;
}
