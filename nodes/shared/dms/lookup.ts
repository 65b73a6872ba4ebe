import type { IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentExists, getUsers, statusOf, type DmsContext } from './client';
import { DmsInputError, type ConvertLookup } from './convert';
import { SECTION_LABEL, type Reference, type Section } from './types';
import { runParameter } from '../node/run-parameters';

/** get_users, or undefined when this user may not call it (405) or the project it names was refused (400). */
async function usersIfListed(
	ctx: DmsContext,
	section: Section,
	projectId: number | undefined,
	itemIndex: number,
): Promise<Reference[] | undefined> {
	const refusedForRights = (error: unknown) =>
		statusOf(error) === '405' || (projectId !== undefined && statusOf(error) === '400');
	return await getUsers(ctx, section, projectId, itemIndex).catch((error: unknown) => {
		if (refusedForRights(error)) return undefined;
		throw error;
	});
}

/**
 * What convertValues needs, answered through the API (each answer remembered for the run). A check that
 * would need rights the operation itself does not need is skipped and noted in `unchecked`.
 */
export function apiLookup(
	ctx: DmsContext,
	section: Section,
	itemIndex: number,
): ConvertLookup & { unchecked: string[] } {
	return {
		unchecked: [],
		async users(field, values) {
			if (!field.depends_on) {
				// Projects and clients list their own users; no action lists the organisation's users for the others.
				if (section === 'project_2' || section === 'client')
					return await usersIfListed(ctx, section, undefined, itemIndex);
				return undefined;
			}
			const projectId = Number(values[field.depends_on]);
			if (!Number.isInteger(projectId) || projectId <= 0) {
				throw new DmsInputError(
					`${field.label ?? field.name} needs the project first`,
					"Users are looked up among the workers of the task's project.",
				);
			}
			return await usersIfListed(ctx, section, projectId, itemIndex);
		},
		documentExists: async (target, id) => await documentExists(ctx, target, id, itemIndex),
	};
}

/** Logs the checks left to the service, so a user can see why a bad ID got as far as the service. */
export function logUnchecked(ctx: IExecuteFunctions, unchecked: string[], itemIndex: number): void {
	if (unchecked.length === 0) return;
	ctx.logger?.warn(
		`Cloud Storage DMS: item ${itemIndex}: checks left to the service: ${unchecked.join('; ')}`,
	);
}

/** A 400 after skipped checks names the fields that were not checked: the service's 400 has an empty body. */
export async function withUncheckedNamed<T>(
	ctx: IExecuteFunctions,
	unchecked: string[],
	itemIndex: number,
	write: () => Promise<T>,
): Promise<T> {
	return await write().catch((error: unknown) => {
		if (unchecked.length === 0 || statusOf(error) !== '400') throw error;
		throw new NodeOperationError(
			ctx.getNode(),
			`The service refused the values (400): check ${unchecked.map((line) => line.split(':')[0]).join(', ')}`,
			{
				itemIndex,
				description: `The node could not check these values beforehand, because this user's group may not read the registers they point to (the service demands write permission even for reading): ${unchecked.join('; ')}. Use IDs that exist, or ask for write permission on those registers so the node can check them.`,
			},
		);
	});
}

/** A positive integer from a resource locator or a plain parameter. */
export function documentId(
	ctx: IExecuteFunctions,
	parameter: string,
	section: Section,
	itemIndex: number,
): number {
	const raw = runParameter(ctx, parameter, itemIndex) as
		| INodeParameterResourceLocator
		| string
		| number;
	const value = typeof raw === 'object' && raw !== null ? raw.value : raw;
	const text = String(value ?? '').trim();
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The ${SECTION_LABEL[section].one} ID must be a positive whole number (got "${text}")`,
			{
				itemIndex,
				description: `Pick the ${SECTION_LABEL[section].one} from the list, or give its numeric ID.`,
			},
		);
	}
	return Number(text);
}
