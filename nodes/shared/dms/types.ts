/** The document-management API's registers and field descriptors, as the spec describes them. No n8n imports. */

export type Section = 'task' | 'project_2' | 'contact_person' | 'client';

export const SECTION_LABEL: Record<Section, { one: string; many: string }> = {
	task: { one: 'task', many: 'tasks' },
	project_2: { one: 'project', many: 'projects' },
	contact_person: { one: 'contact person', many: 'contact persons' },
	client: { one: 'client', many: 'clients' },
};

export type FieldType =
	| 'text'
	| 'date'
	| 'html'
	| 'dropdown'
	| 'dropdown_ids'
	| 'relation'
	| 'relation_ids'
	| 'user_id'
	| 'user_ids';

export interface Reference {
	id: number;
	display_name: string;
}

export interface FieldDescriptor {
	name: string;
	label?: string;
	/** Unknown types (a newer service) are shown in outputs but never written. */
	type: FieldType | string;
	required?: boolean;
	filter?: boolean;
	options?: Reference[];
	section?: Section | string;
	list_action?: 'get_users' | 'get_documents' | string;
	depends_on?: string;
}

export type DmsDocument = Record<string, unknown> & { dvs_document_id: number };

export interface DocumentPage {
	items: DmsDocument[];
	total: number;
	limit?: number;
	offset?: number;
}

export const WRITABLE_TYPES: readonly string[] = [
	'text',
	'date',
	'html',
	'dropdown',
	'dropdown_ids',
	'relation',
	'relation_ids',
	'user_id',
	'user_ids',
];

/** Text fields the spec documents as numeric strings. */
export const NUMERIC_TEXT_FIELDS: Partial<Record<Section, readonly string[]>> = {
	task: ['estimated_hours', 'spent_hours'],
};

/** The spec's page size bounds for get_documents. */
export const MAX_PAGE_SIZE = 200;

export const isMulti = (field: FieldDescriptor) =>
	field.type === 'dropdown_ids' || field.type === 'relation_ids' || field.type === 'user_ids';
export const isUserField = (field: FieldDescriptor) =>
	field.type === 'user_id' || field.type === 'user_ids';
export const isRelationField = (field: FieldDescriptor) =>
	field.type === 'relation' || field.type === 'relation_ids';
export const isOptionField = (field: FieldDescriptor) =>
	field.type === 'dropdown' || field.type === 'dropdown_ids';
