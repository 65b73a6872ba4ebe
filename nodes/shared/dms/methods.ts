/** Pickers and the field mapper of both DMS nodes, built from get_fields / get_users / get_documents. */
import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	ResourceMapperFields,
} from 'n8n-workflow';

import { fetchPage, getDocument, getFields, getUsers, unless405 } from './client';
import { labelOf } from './convert';
import { RESOURCE_SECTION } from './descriptions';
import { mapperFields, type MapperChoices } from './mapper';
import {
	isOptionField,
	isUserField,
	MAX_PAGE_SIZE,
	SECTION_LABEL,
	WRITABLE_TYPES,
	type DmsDocument,
	type Reference,
	type Section,
} from './types';

function sectionOf(ctx: ILoadOptionsFunctions): Section {
	return RESOURCE_SECTION[String(ctx.getCurrentNodeParameter('resource') ?? '')] ?? 'task';
}

function idParameter(ctx: ILoadOptionsFunctions, name: string): number | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
	const text = String(value ?? '').trim();
	return /^\d+$/.test(text) ? Number(text) : undefined;
}

const isKnownSection = (section: unknown) => Object.hasOwn(SECTION_LABEL, String(section));

const nameOf = (doc: DmsDocument) =>
	String(doc.name ?? doc.display_name ?? `#${doc.dvs_document_id}`);

/** Registers small enough to list completely become dropdowns (undefined: larger ones take IDs). */
async function listable(
	ctx: ILoadOptionsFunctions,
	section: Section,
): Promise<Reference[] | undefined> {
	const page = await fetchPage(ctx, section, 0, MAX_PAGE_SIZE);
	if (page.total > page.items.length) return undefined;
	return page.items.map((doc) => ({
		id: doc.dvs_document_id,
		display_name: `${nameOf(doc)} (${doc.dvs_document_id})`,
	}));
}

/**
 * A related register for the field mapper: one this user may not read (405, the API's answer to a missing
 * section permission) leaves its field taking IDs rather than failing the whole mapper; any other failure shows.
 */
async function relationChoices(
	ctx: ILoadOptionsFunctions,
	section: Section,
): Promise<Reference[] | undefined> {
	return await unless405(listable(ctx, section));
}

async function choicesFor(
	ctx: ILoadOptionsFunctions,
	section: Section,
	projectId: number | undefined,
): Promise<MapperChoices> {
	const schema = await getFields(ctx, section);
	const choices: MapperChoices = { relations: {} };
	const needsUsers = schema.some((field) => field.type === 'user_id');
	if (needsUsers) {
		if (section === 'task')
			choices.users = projectId === undefined ? undefined : await getUsers(ctx, section, projectId);
		else if (section !== 'contact_person') choices.users = await getUsers(ctx, section);
	}
	for (const field of schema.filter(
		(entry) =>
			entry.type === 'relation' && entry.name !== 'dvs_project_id' && isKnownSection(entry.section),
	)) {
		const target = field.section as Section;
		if (choices.relations![target] === undefined)
			choices.relations![target] = await relationChoices(ctx, target);
	}
	return choices;
}

const EXCLUDED: Partial<Record<Section, string[]>> = { task: ['dvs_project_id'] };

export const resourceMapping = {
	async getCreateFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const section = sectionOf(this);
		const choices = await choicesFor(this, section, idParameter(this, 'project'));
		return {
			fields: mapperFields(
				section,
				await getFields(this, section),
				'create',
				choices,
				EXCLUDED[section],
			),
		};
	},

	async getUpdateFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const section = sectionOf(this);
		let projectId: number | undefined;
		const id = idParameter(this, 'documentId');
		if (section === 'task' && id !== undefined) {
			const task = await getDocument(this, 'task', id);
			projectId = (task.dvs_project_id as Reference | undefined)?.id;
		}
		const choices = await choicesFor(this, section, projectId);
		return {
			fields: mapperFields(
				section,
				await getFields(this, section),
				'update',
				choices,
				EXCLUDED[section],
			),
		};
	},
};

async function search(
	ctx: ILoadOptionsFunctions,
	section: Section,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(token ?? 0) || 0;
	const page = await fetchPage(ctx, section, offset, MAX_PAGE_SIZE);
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = page.items
		.filter(
			(doc) =>
				!wanted ||
				nameOf(doc).toLowerCase().includes(wanted) ||
				String(doc.dvs_document_id) === wanted ||
				String(doc.full_number ?? '').toLowerCase() === wanted,
		)
		.map((doc) => ({
			name: doc.full_number ? `${nameOf(doc)} (${String(doc.full_number)})` : nameOf(doc),
			value: String(doc.dvs_document_id),
		}));
	const next = offset + page.items.length;
	return {
		results,
		paginationToken: page.items.length > 0 && next < page.total ? String(next) : undefined,
	};
}

export const listSearch = {
	async searchTasks(this: ILoadOptionsFunctions, filter?: string, token?: string) {
		return await search(this, 'task', filter, token);
	},
	async searchProjects(this: ILoadOptionsFunctions, filter?: string, token?: string) {
		return await search(this, 'project_2', filter, token);
	},
	async searchClients(this: ILoadOptionsFunctions, filter?: string, token?: string) {
		return await search(this, 'client', filter, token);
	},
	async searchContactPersons(this: ILoadOptionsFunctions, filter?: string, token?: string) {
		return await search(this, 'contact_person', filter, token);
	},
};

const asOptions = (choices: Reference[]): INodePropertyOptions[] =>
	choices.map((choice) => ({ name: choice.display_name, value: choice.id }));

export const loadOptions = {
	async getFilterFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const schema = await getFields(this, sectionOf(this));
		return schema
			.filter((field) => field.filter)
			.map((field) => ({
				name: labelOf(field),
				value: field.name,
				description: `${field.name} (${field.type})`,
			}));
	},

	async getFilterValues(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const section = sectionOf(this);
		const name = String(this.getCurrentNodeParameter('&field') ?? '');
		const field = (await getFields(this, section)).find((entry) => entry.name === name);
		if (!field) return [];
		if (isOptionField(field)) return asOptions(field.options ?? []);
		// Projects and clients list their own users; no action lists the organisation's users for a task filter.
		if (isUserField(field))
			return section === 'project_2' || section === 'client'
				? asOptions(await getUsers(this, section))
				: [];
		if (
			(field.type === 'relation' || field.type === 'relation_ids') &&
			isKnownSection(field.section)
		)
			return asOptions((await listable(this, field.section as Section)) ?? []);
		return [];
	},

	async getClearableFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const schema = await getFields(this, sectionOf(this));
		return schema
			.filter((field) => !field.required && WRITABLE_TYPES.includes(field.type))
			.map((field) => ({ name: labelOf(field), value: field.name }));
	},

	/**
	 * The workers of the chosen task's project: mentions reach anyone in the organisation, but no action a
	 * task writer may call lists the organisation's users (others are mentioned by ID).
	 */
	async getMentionUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const id = idParameter(this, 'documentId');
		if (id === undefined) return [];
		const task = await getDocument(this, 'task', id);
		const projectId = (task.dvs_project_id as Reference | undefined)?.id;
		return projectId === undefined ? [] : asOptions(await getUsers(this, 'task', projectId));
	},
};
