/**
 * Turns what a user entered (ids, display names, comma lists, dates) into the input types of the spec and
 * checks each value against the organisation's schema before anything is sent: the API answers an
 * invalid id with a bare 400, so the node names the field and the value itself. No n8n imports.
 */
import { PackError } from '../errors/pack-error';
import {
	isMulti,
	isUserField,
	NUMERIC_TEXT_FIELDS,
	SECTION_LABEL,
	WRITABLE_TYPES,
	type FieldDescriptor,
	type Reference,
	type Section,
} from './types';

/** Bad input found before any write: a PackError of kind 'input'. */
export class DmsInputError extends PackError {
	constructor(message: string, description?: string) {
		super(message, { kind: 'input', description });
	}
}

export interface ConvertLookup {
	/**
	 * Users a user field may name (for tasks, the workers of the project in `values[field.depends_on]`);
	 * undefined when no action this user may call lists them: IDs then pass unchecked.
	 */
	users(field: FieldDescriptor, values: Record<string, unknown>): Promise<Reference[] | undefined>;
	/** Undefined when this user cannot read the register: the ID passes unchecked. */
	documentExists(section: Section, id: number): Promise<boolean | undefined>;
	/** Checks left to the service, one line each, for the log and for the message of a later 400. */
	unchecked?: string[];
}

export interface ConvertOptions {
	section: Section;
	mode: 'create' | 'update';
	/** Values that user fields depend on but that are not being written (the project of an existing task). */
	context?: Record<string, unknown>;
	/** Fields the user asked to empty on update: sent as null or []. */
	clear?: string[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
const NUMBER = /^\d+(?:[.,]\d+)?$/;

export const labelOf = (field: FieldDescriptor) => field.label || field.name;

export function isEmptyInput(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** A list from an array, a JSON array text or a comma-separated text; `{id}` objects give their id. */
export function toList(value: unknown): unknown[] {
	if (Array.isArray(value))
		return value.map((entry) =>
			typeof entry === 'object' && entry !== null && 'id' in entry
				? (entry as Reference).id
				: entry,
		);
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[')) {
			const parsed = parseJson(text);
			if (!Array.isArray(parsed)) throw new DmsInputError(`"${text}" is not a valid JSON array`);
			return toList(parsed);
		}
		return text
			.split(',')
			.map((entry) => entry.trim())
			.filter((entry) => entry !== '');
	}
	if (typeof value === 'object' && value !== null && 'id' in value)
		return [(value as Reference).id];
	return [value];
}

function integerOf(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

const describeChoices = (choices: Reference[]) =>
	choices.length === 0
		? 'none are available'
		: choices
				.slice(0, 25)
				.map((choice) => `${choice.display_name} (${choice.id})`)
				.join(', ') + (choices.length > 25 ? ', …' : '');

/** An id, or a display name matched without regard to case. */
export function resolveChoice(
	field: FieldDescriptor,
	value: unknown,
	choices: Reference[],
	kind: string,
): number {
	const id = integerOf(value);
	if (id !== undefined && choices.some((choice) => choice.id === id)) return id;
	const name = String(value).trim().toLowerCase();
	const byName = choices.filter((choice) => choice.display_name.trim().toLowerCase() === name);
	if (byName.length === 1) return byName[0].id;
	if (byName.length > 1) {
		throw new DmsInputError(
			`"${String(value)}" is ambiguous for ${labelOf(field)}`,
			`Several ${kind}s have that name; give the ID instead: ${describeChoices(byName)}.`,
		);
	}
	throw new DmsInputError(
		`Unknown ${kind} "${String(value)}" for ${labelOf(field)}`,
		`Choose one of: ${describeChoices(choices)}.`,
	);
}

function dateOf(field: FieldDescriptor, value: unknown): string {
	const text =
		value instanceof Date
			? value.toISOString()
			: String((value as { toISO?: () => string })?.toISO?.() ?? value).trim();
	const match = DATE.exec(text);
	const date =
		match && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
	if (!match || !date || date.toISOString().slice(0, 10) !== text.slice(0, 10)) {
		throw new DmsInputError(`${labelOf(field)} must be a date as YYYY-MM-DD (got "${text}")`);
	}
	return text.slice(0, 10);
}

function textOf(section: Section, field: FieldDescriptor, value: unknown): string {
	if (typeof value === 'object')
		throw new DmsInputError(
			`${labelOf(field)} must be text, not ${Array.isArray(value) ? 'a list' : 'an object'}`,
		);
	const text = String(value);
	if (NUMERIC_TEXT_FIELDS[section]?.includes(field.name)) {
		if (!NUMBER.test(text.trim()))
			throw new DmsInputError(
				`${labelOf(field)} must be a number of hours such as 2.5 (got "${text}")`,
			);
		return text.trim().replace(',', '.');
	}
	return text;
}

/** The register a relation points to; one the API does not offer would only earn a 400. */
export function relationTarget(field: FieldDescriptor): Section {
	const target = field.section as Section;
	if (!Object.hasOwn(SECTION_LABEL, String(target))) {
		throw new DmsInputError(
			`${labelOf(field)} refers to the unknown register "${String(field.section)}"`,
			'The document-management API offers task, project_2, contact_person and client only. Leave this field out.',
		);
	}
	return target;
}

/** Notes a check the node could not make (the register or the user list is not readable for this user). */
export function noteUnchecked(
	lookup: ConvertLookup,
	field: FieldDescriptor,
	id: number,
	what: string,
): void {
	lookup.unchecked?.push(`${labelOf(field)} (${field.name}) = ${id}: ${what}`);
}

/** A user ID from a field whose users cannot be listed: only a whole number can pass. */
export function uncheckedUser(
	field: FieldDescriptor,
	value: unknown,
	lookup: ConvertLookup,
): number {
	const id = integerOf(value);
	if (id === undefined) {
		throw new DmsInputError(
			`${labelOf(field)} needs a user ID here (got "${String(value)}")`,
			'This user may call no action that lists these users, so names cannot be looked up. Give the numeric user ID.',
		);
	}
	noteUnchecked(lookup, field, id, 'user not checked (no list of these users is readable)');
	return id;
}

async function relationOf(
	field: FieldDescriptor,
	value: unknown,
	lookup: ConvertLookup,
): Promise<number> {
	const target = relationTarget(field);
	const label = SECTION_LABEL[target].one;
	const id = integerOf(value);
	if (id === undefined)
		throw new DmsInputError(
			`${labelOf(field)} needs the ID of a ${label} (got "${String(value)}")`,
			`Pick the ${label} from the list, or give its numeric ID.`,
		);
	const exists = await lookup.documentExists(target, id);
	if (exists === undefined) {
		noteUnchecked(
			lookup,
			field,
			id,
			`not checked (this user may not read ${SECTION_LABEL[target].many})`,
		);
		return id;
	}
	if (!exists) {
		throw new DmsInputError(
			`Unknown ${label} ${id} for ${labelOf(field)}`,
			`No ${label} with this ID exists in the organisation (or this user may not read ${SECTION_LABEL[target].many}).`,
		);
	}
	return id;
}

async function convertOne(
	options: ConvertOptions,
	field: FieldDescriptor,
	value: unknown,
	values: Record<string, unknown>,
	lookup: ConvertLookup,
): Promise<unknown> {
	const each = async (convert: (entry: unknown) => Promise<number> | number) => {
		const ids: number[] = [];
		for (const entry of toList(value)) ids.push(await convert(entry));
		return [...new Set(ids)];
	};
	switch (field.type) {
		case 'text':
		case 'html':
			return textOf(options.section, field, value);
		case 'date':
			return dateOf(field, value);
		case 'dropdown':
			return resolveChoice(field, toList(value)[0], field.options ?? [], 'option');
		case 'dropdown_ids':
			return await each((entry) => resolveChoice(field, entry, field.options ?? [], 'option'));
		case 'relation':
			return await relationOf(field, toList(value)[0], lookup);
		case 'relation_ids':
			return await each((entry) => relationOf(field, entry, lookup));
		case 'user_id':
		case 'user_ids': {
			const users = await lookup.users(field, values);
			const one = (entry: unknown) =>
				users === undefined
					? uncheckedUser(field, entry, lookup)
					: resolveChoice(
							field,
							entry,
							users,
							field.depends_on ? 'user (not a worker of this project)' : 'user',
						);
			return field.type === 'user_id' ? one(toList(value)[0]) : await each(one);
		}
		default:
			throw new DmsInputError(
				`${labelOf(field)} cannot be written`,
				`Its type "${field.type}" is read-only for this node.`,
			);
	}
}

/** Fields users depend on (the project) are converted first, so user checks know the project. */
function ordered(fields: FieldDescriptor[]): FieldDescriptor[] {
	return [...fields.filter((field) => !isUserField(field)), ...fields.filter(isUserField)];
}

export async function convertValues(
	schema: FieldDescriptor[],
	input: Record<string, unknown>,
	lookup: ConvertLookup,
	options: ConvertOptions,
): Promise<Record<string, unknown>> {
	const byName = new Map(schema.map((field) => [field.name, field]));
	for (const name of [...Object.keys(input), ...(options.clear ?? [])]) {
		const field = byName.get(name);
		if (!field) {
			throw new DmsInputError(
				`The field "${name}" is not declared for this organisation`,
				"Refresh the field list (the organisation's fields may have changed), or remove the field.",
			);
		}
		if (!WRITABLE_TYPES.includes(field.type))
			throw new DmsInputError(`${labelOf(field)} is read-only`);
	}
	const params: Record<string, unknown> = {};
	const values: Record<string, unknown> = { ...options.context };
	for (const field of ordered(schema)) {
		const value = input[field.name];
		if (isEmptyInput(value)) continue;
		params[field.name] = await convertOne(options, field, value, values, lookup);
		values[field.name] = params[field.name];
	}
	for (const name of options.clear ?? []) {
		const field = byName.get(name)!;
		if (field.required)
			throw new DmsInputError(`${labelOf(field)} is required and cannot be emptied`);
		if (params[name] !== undefined)
			throw new DmsInputError(`${labelOf(field)} is both set and listed under Clear Fields`);
		params[name] = isMulti(field) ? [] : null;
	}
	if (options.mode === 'create') {
		const missing = schema.filter(
			(field) =>
				field.required && WRITABLE_TYPES.includes(field.type) && params[field.name] === undefined,
		);
		if (missing.length > 0) {
			throw new DmsInputError(
				`Missing required field${missing.length > 1 ? 's' : ''}: ${missing.map(labelOf).join(', ')}`,
				'Fill every field marked as required in the field list.',
			);
		}
	}
	return params;
}
