/**
 * get_documents filters from the node's conditions: only fields declared with `filter: true`; values of
 * one field are OR-ed (merged into one list), different fields AND-ed. No n8n imports.
 */
import {
	DmsInputError,
	labelOf,
	noteUnchecked,
	relationTarget,
	resolveChoice,
	toList,
	uncheckedUser,
	type ConvertLookup,
} from './convert';
import {
	isOptionField,
	isRelationField,
	isUserField,
	SECTION_LABEL,
	type FieldDescriptor,
} from './types';

export interface FilterCondition {
	field?: string;
	values?: unknown;
}

async function filterValue(
	field: FieldDescriptor,
	value: unknown,
	lookup: ConvertLookup,
): Promise<number | string> {
	if (isOptionField(field)) return resolveChoice(field, value, field.options ?? [], 'option');
	// A filter names no project: the register's own user list where one exists, otherwise IDs unchecked.
	if (isUserField(field)) {
		const users = await lookup.users({ ...field, depends_on: undefined }, {});
		return users === undefined
			? uncheckedUser(field, value, lookup)
			: resolveChoice(field, value, users, 'user');
	}
	if (isRelationField(field)) {
		const id = Number(String(value).trim());
		const target = relationTarget(field);
		if (!Number.isInteger(id) || id <= 0) {
			throw new DmsInputError(
				`The filter on ${labelOf(field)} needs ${SECTION_LABEL[target]?.one ?? 'document'} IDs (got "${String(value)}")`,
			);
		}
		const exists = await lookup.documentExists(target, id);
		if (exists === undefined)
			noteUnchecked(
				lookup,
				field,
				id,
				`not checked (this user may not read ${SECTION_LABEL[target].many})`,
			);
		else if (!exists) {
			throw new DmsInputError(
				`Unknown ${SECTION_LABEL[target]?.one ?? 'document'} ${id} in the filter on ${labelOf(field)}`,
			);
		}
		return id;
	}
	return String(value);
}

export async function buildFilters(
	schema: FieldDescriptor[],
	conditions: FilterCondition[],
	lookup: ConvertLookup,
): Promise<Record<string, Array<number | string>>> {
	const filterable = schema.filter((field) => field.filter);
	const filters: Record<string, Array<number | string>> = {};
	for (const condition of conditions) {
		const name = String(condition.field ?? '').trim();
		if (!name) continue;
		const field = filterable.find((entry) => entry.name === name);
		if (!field) {
			const allowed =
				filterable.map((entry) => `${labelOf(entry)} (${entry.name})`).join(', ') || 'none';
			throw new DmsInputError(
				`"${name}" cannot be used as a filter`,
				`This organisation allows filtering on: ${allowed}.`,
			);
		}
		const values = toList(condition.values).filter(
			(value) => value !== '' && value !== null && value !== undefined,
		);
		if (values.length === 0)
			throw new DmsInputError(
				`The filter on ${labelOf(field)} has no values`,
				'Pick at least one value, or remove the condition.',
			);
		const list = (filters[name] ??= []);
		for (const value of values) {
			const converted = await filterValue(field, value, lookup);
			if (!list.includes(converted)) list.push(converted);
		}
	}
	return filters;
}
