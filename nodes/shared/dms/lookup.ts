import type { IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentExists, getOrganisationUsers, getUsers, type DmsContext } from './client';
import { DmsInputError, type ConvertLookup } from './convert';
import { SECTION_LABEL, type Section } from './types';

/** What convertValues needs, answered through the API (each answer remembered for the run). */
export function apiLookup(ctx: DmsContext, section: Section, itemIndex: number): ConvertLookup {
	return {
		async users(field, values) {
			if (!field.depends_on) {
				// Tasks and contact persons have no organisation-wide get_users; projects and clients do.
				if (section === 'project_2' || section === 'client') return await getUsers(ctx, section, undefined, itemIndex);
				return await getOrganisationUsers(ctx, itemIndex);
			}
			const projectId = Number(values[field.depends_on]);
			if (!Number.isInteger(projectId) || projectId <= 0) {
				throw new DmsInputError(`${field.label ?? field.name} needs the project first`, 'Users are looked up among the workers of the task\'s project.');
			}
			return await getUsers(ctx, section, projectId, itemIndex);
		},
		documentExists: async (target, id) => await documentExists(ctx, target, id, itemIndex),
	};
}

/** A positive integer from a resource locator or a plain parameter. */
export function documentId(ctx: IExecuteFunctions, parameter: string, section: Section, itemIndex: number): number {
	const raw = ctx.getNodeParameter(parameter, itemIndex) as INodeParameterResourceLocator | string | number;
	const value = typeof raw === 'object' && raw !== null ? raw.value : raw;
	const text = String(value ?? '').trim();
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		throw new NodeOperationError(ctx.getNode(), `The ${SECTION_LABEL[section].one} ID must be a positive whole number (got "${text}")`, {
			itemIndex,
			description: `Pick the ${SECTION_LABEL[section].one} from the list, or give its numeric ID.`,
		});
	}
	return Number(text);
}
