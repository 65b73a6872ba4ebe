import type { INodePropertyOptions, ResourceMapperField } from 'n8n-workflow';

import { labelOf } from './convert';
import {
	isMulti,
	NUMERIC_TEXT_FIELDS,
	WRITABLE_TYPES,
	type FieldDescriptor,
	type Reference,
	type Section,
} from './types';

export interface MapperChoices {
	/** Users for user fields (a task's project workers); undefined when the project is not known yet. */
	users?: Reference[];
	/** Documents per register for single relations, when the register is small enough to list. */
	relations?: Partial<Record<string, Reference[]>>;
}

const toOptions = (choices: Reference[]): INodePropertyOptions[] =>
	choices.map((choice) => ({ name: choice.display_name, value: choice.id }));

/** What each field expects, said in its label because a resource-mapper field has no hint line. */
function hint(
	section: Section,
	field: FieldDescriptor,
	mode: 'create' | 'update',
	listed: boolean,
): string {
	const replaces = mode === 'update' && isMulti(field) ? '; replaces the current selection' : '';
	switch (field.type) {
		case 'date':
			return ' (YYYY-MM-DD)';
		case 'html':
			return ' (HTML)';
		case 'text':
			return NUMERIC_TEXT_FIELDS[section]?.includes(field.name) ? ' (number, e.g. 2.5)' : '';
		case 'dropdown_ids':
			return ` (names or IDs, comma-separated${replaces})`;
		case 'user_id':
			return listed ? '' : ' (user ID or name)';
		case 'user_ids':
			return ` (user names or IDs, comma-separated${replaces})`;
		case 'relation':
			return listed ? '' : ' (ID)';
		case 'relation_ids':
			return ` (IDs, comma-separated${replaces})`;
		default:
			return '';
	}
}

function choicesFor(field: FieldDescriptor, choices: MapperChoices): Reference[] | undefined {
	if (field.type === 'dropdown') return field.options ?? [];
	if (field.type === 'user_id') return choices.users;
	if (field.type === 'relation') return choices.relations?.[String(field.section)];
	return undefined;
}

/** The organisation's declared fields as resource-mapper fields: label, required mark, dropdowns by display name. */
export function mapperFields(
	section: Section,
	schema: FieldDescriptor[],
	mode: 'create' | 'update',
	choices: MapperChoices,
	exclude: string[] = [],
): ResourceMapperField[] {
	return schema
		.filter((field) => WRITABLE_TYPES.includes(field.type) && !exclude.includes(field.name))
		.map((field) => {
			const listed = choicesFor(field, choices);
			return {
				id: field.name,
				displayName: `${labelOf(field)}${hint(section, field, mode, listed !== undefined)}`,
				required: mode === 'create' && field.required === true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: listed ? 'options' : 'string',
				...(listed ? { options: toOptions(listed) } : {}),
			};
		});
}
