import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { toNodeError } from './node-error';
import { refusePlaceholders } from './placeholders';

export type PollResult = INodeExecutionData[][] | null;

/**
 * The poll wrapper every trigger shares: what a poll throws (a PackError from a protocol layer, an n8n error
 * from the transport) reaches n8n as an n8n error naming cause and fix, converted here and nowhere else.
 * A parameter still holding an example's placeholder is refused before any request.
 */
export async function runPoll(
	ctx: IPollFunctions,
	poll: () => Promise<PollResult>,
): Promise<PollResult> {
	try {
		refusePlaceholders(ctx.getNode().parameters);
		return await poll();
	} catch (error) {
		throw toNodeError(ctx.getNode(), error);
	}
}
