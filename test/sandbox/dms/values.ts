import { NUMERIC_TEXT, type FieldDescriptor, type Section } from './schema.ts';
import type { DmsDocument, Organisation } from './state.ts';

/** A rejected value: the service answers 400 with an empty body, so the reason is only logged for tests. */
export class InvalidParams extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMERIC = /^\d+(?:\.\d+)?$/;

export function isValidDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) return false;
	const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
	return date.toISOString().slice(0, 10) === text;
}

export function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

function integer(value: unknown, what: string): number {
	if (typeof value !== 'number' || !Number.isInteger(value))
		throw new InvalidParams(`${what}: not an integer`);
	return value;
}

function ids(value: unknown, what: string): number[] {
	if (!Array.isArray(value)) throw new InvalidParams(`${what}: not an array`);
	return value.map((entry) => integer(entry, what));
}

/** Users a field may name: the workers of the project it depends on, otherwise everyone in the organisation. */
export function allowedUsers(
	org: Organisation,
	field: FieldDescriptor,
	values: Record<string, unknown>,
): Set<number> {
	if (field.depends_on) return org.workers.get(Number(values[field.depends_on])) ?? new Set();
	return new Set(org.users.keys());
}

function documentIn(
	org: Organisation,
	section: Section | undefined,
	id: number,
): DmsDocument | undefined {
	const doc = org.documents.get(id);
	return doc && doc.section === section ? doc : undefined;
}

/**
 * Checks one value against its descriptor and returns it in stored form; throws InvalidParams (400).
 * `context` holds the document's values after the change, which user fields with depends_on need.
 */
export function checkValue(
	org: Organisation,
	section: Section,
	field: FieldDescriptor,
	value: unknown,
	context: Record<string, unknown>,
): unknown {
	const what = `${section}.${field.name}`;
	if (value === null) {
		if (field.required) throw new InvalidParams(`${what}: required`);
		return field.type.endsWith('_ids') ? [] : null;
	}
	switch (field.type) {
		case 'text':
		case 'html':
			if (typeof value !== 'string') throw new InvalidParams(`${what}: not a string`);
			if (
				NUMERIC_TEXT[section]?.includes(field.name) &&
				value.trim() !== '' &&
				!NUMERIC.test(value.trim())
			) {
				throw new InvalidParams(`${what}: not a numeric string`);
			}
			return value;
		case 'date':
			if (typeof value !== 'string' || (value !== '' && !isValidDate(value)))
				throw new InvalidParams(`${what}: not YYYY-MM-DD`);
			return value === '' ? null : value;
		case 'dropdown': {
			const id = integer(value, what);
			if (!field.options?.some((option) => option.id === id))
				throw new InvalidParams(`${what}: unknown option ${id}`);
			return id;
		}
		case 'dropdown_ids': {
			const list = ids(value, what);
			for (const id of list)
				if (!field.options?.some((option) => option.id === id))
					throw new InvalidParams(`${what}: unknown option ${id}`);
			return [...new Set(list)];
		}
		case 'relation': {
			const id = integer(value, what);
			if (!documentIn(org, field.section, id))
				throw new InvalidParams(`${what}: no ${field.section} ${id}`);
			return id;
		}
		case 'relation_ids': {
			const list = ids(value, what);
			for (const id of list)
				if (!documentIn(org, field.section, id))
					throw new InvalidParams(`${what}: no ${field.section} ${id}`);
			return [...new Set(list)];
		}
		case 'user_id': {
			const id = integer(value, what);
			if (!allowedUsers(org, field, context).has(id))
				throw new InvalidParams(`${what}: user ${id} not allowed`);
			return id;
		}
		case 'user_ids': {
			const list = ids(value, what);
			const allowed = allowedUsers(org, field, context);
			for (const id of list)
				if (!allowed.has(id)) throw new InvalidParams(`${what}: user ${id} not allowed`);
			return [...new Set(list)];
		}
		default:
			return value;
	}
}

const ref = (id: number, display_name: string) => ({ id, display_name });

function render(org: Organisation, field: FieldDescriptor, value: unknown): unknown {
	const option = (id: number) =>
		ref(id, field.options?.find((entry) => entry.id === id)?.display_name ?? String(id));
	const user = (id: number) => ref(id, org.users.get(id)?.display_name ?? `User ${id}`);
	const doc = (id: number) => ref(id, String(org.documents.get(id)?.values.name ?? id));
	const list = (mapper: (id: number) => unknown) =>
		Array.isArray(value) ? value.map((id) => mapper(id as number)) : [];
	switch (field.type) {
		case 'dropdown':
			return value == null ? null : option(value as number);
		case 'dropdown_ids':
			return list(option);
		case 'relation':
			return value == null ? null : doc(value as number);
		case 'relation_ids':
			return list(doc);
		case 'user_id':
			return value == null ? null : user(value as number);
		case 'user_ids':
			return list(user);
		default:
			return value ?? null;
	}
}

function dateTime(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** A document as get_document (full) or get_documents (html fields omitted) answers it. */
export function renderDocument(
	org: Organisation,
	doc: DmsDocument,
	full: boolean,
): Record<string, unknown> {
	const out: Record<string, unknown> = { dvs_document_id: doc.id };
	if (doc.fullNumber) out.full_number = doc.fullNumber;
	for (const field of org.schemas[doc.section]) {
		if (field.type === 'html' && !full) continue;
		out[field.name] = render(org, field, doc.values[field.name]);
	}
	if (out.name === undefined) out.name = doc.values.name ?? null;
	out.creator = ref(
		doc.creatorId,
		org.users.get(doc.creatorId)?.display_name ?? `User ${doc.creatorId}`,
	);
	out.date_created = dateTime(doc.created);
	out.date_updated = dateTime(doc.updated);
	return out;
}

/** get_documents filters: several values of one field OR, different fields AND; unknown or non-filter keys ignored. */
export function matchesFilters(
	org: Organisation,
	doc: DmsDocument,
	filters: Record<string, unknown>,
): boolean {
	for (const [name, wanted] of Object.entries(filters)) {
		const field = org.schemas[doc.section].find((entry) => entry.name === name);
		if (!field?.filter) continue;
		const accepted = (Array.isArray(wanted) ? wanted : [wanted]).map(String);
		if (accepted.length === 0) continue;
		const value = doc.values[name];
		const present = (Array.isArray(value) ? value : value == null ? [] : [value]).map(String);
		if (!present.some((entry) => accepted.includes(entry))) return false;
	}
	return true;
}
