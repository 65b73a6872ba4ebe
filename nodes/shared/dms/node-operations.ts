/**
 * Description + execute pairs for the operations every DMS register offers, so a node's operation file
 * is one line per register: `export const { description, execute } = getOperation('project', 'project_2')`.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	clearFieldsNotice,
	clearFieldsOption,
	documentLocator,
	fieldsMapper,
	listProperties,
	uncheckedNotice,
} from './descriptions';
import {
	executeCreate,
	executeGet,
	executeGetFields,
	executeGetMany,
	executeUpdate,
	type CreateOptions,
} from './operations';
import { SECTION_LABEL, type Section } from './types';

export interface OperationModule {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
}

const shown = (resource: string, operation: string, properties: INodeProperties[]) =>
	updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties);

export function getFieldsOperation(resource: string, section: Section): OperationModule {
	return {
		description: shown(resource, 'getFields', []),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeGetFields(this, section, itemIndex);
		},
	};
}

export function getOperation(resource: string, section: Section): OperationModule {
	return {
		description: shown(resource, 'get', [documentLocator(section, 'documentId')]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeGet(this, section, itemIndex);
		},
	};
}

export function getManyOperation(resource: string, section: Section): OperationModule {
	return {
		description: shown(resource, 'getAll', listProperties(section)),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeGetMany(this, section, itemIndex);
		},
	};
}

export function createOperation(
	resource: string,
	section: Section,
	before: INodeProperties[],
	options: (ctx: IExecuteFunctions, itemIndex: number) => CreateOptions,
): OperationModule {
	const dependsOn = before.map((property) =>
		property.type === 'resourceLocator' ? `${property.name}.value` : property.name,
	);
	return {
		description: shown(resource, 'create', [
			...before,
			fieldsMapper(section, 'create', dependsOn),
			uncheckedNotice,
			{
				displayName: `The service has no idempotency key. If the answer to a create is lost, the node compares the 50 newest ${SECTION_LABEL[section].many}${section === 'task' ? ' of the project' : ''} with those it noted before: exactly one new one created by this credential's user, dated no earlier than the newest noted, with the values sent, counts as created; none (also a second later) means it is sent again, unless the create timed out; anything else is reported as "may have been applied". Others' ${SECTION_LABEL[section].many} are never taken for it.`,
				name: 'createProofNotice',
				type: 'notice',
				default: '',
			},
		]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeCreate(this, section, itemIndex, options(this, itemIndex));
		},
	};
}

export function updateOperation(
	resource: string,
	section: Section,
	notice: string,
	immutable: Record<string, string> = {},
): OperationModule {
	return {
		description: shown(resource, 'update', [
			documentLocator(section, 'documentId'),
			{ displayName: notice, name: 'updateNotice', type: 'notice', default: '' },
			fieldsMapper(section, 'update', ['documentId.value']),
			clearFieldsOption,
			clearFieldsNotice,
			uncheckedNotice,
		]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeUpdate(this, section, itemIndex, { immutable });
		},
	};
}
