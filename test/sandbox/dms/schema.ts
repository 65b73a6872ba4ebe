/**
 * The organisation-specific field schemas of the four DMS registers. The defaults cover every field type
 * of the spec (text, date, html, dropdown, dropdown_ids, relation, relation_ids, user_id, user_ids);
 * `POST /__sandbox/dms/schema` replaces a register's list, so tests can try other organisations.
 */

export const SECTIONS = ['task', 'project_2', 'contact_person', 'client'] as const;
export type Section = (typeof SECTIONS)[number];

export const FIELD_TYPES = [
	'text',
	'date',
	'html',
	'dropdown',
	'dropdown_ids',
	'relation',
	'relation_ids',
	'user_id',
	'user_ids',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface DropdownOption {
	id: number;
	display_name: string;
}

export interface FieldDescriptor {
	name: string;
	label: string;
	type: FieldType;
	required: boolean;
	filter: boolean;
	options?: DropdownOption[];
	section?: Section;
	list_action?: 'get_users' | 'get_documents';
	depends_on?: string;
}

export const ACTIONS: Record<Section, readonly string[]> = {
	task: [
		'get_fields',
		'get_users',
		'get_document',
		'get_documents',
		'create_document',
		'update_document',
		'add_comment',
	],
	project_2: ['get_fields', 'get_users', 'get_document', 'get_documents'],
	contact_person: [
		'get_fields',
		'get_document',
		'get_documents',
		'create_document',
		'update_document',
	],
	client: ['get_fields', 'get_users', 'get_document', 'get_documents'],
};

/** Task text fields the spec documents as numeric strings. */
export const NUMERIC_TEXT: Partial<Record<Section, readonly string[]>> = {
	task: ['estimated_hours', 'spent_hours'],
};

const options = (...entries: Array<[number, string]>): DropdownOption[] =>
	entries.map(([id, display_name]) => ({ id, display_name }));

const field = (
	name: string,
	label: string,
	type: FieldType,
	extra: Partial<FieldDescriptor> = {},
): FieldDescriptor => ({
	name,
	label,
	type,
	required: false,
	filter: false,
	...extra,
});

const relation = (section: Section) => ({ section, list_action: 'get_documents' as const });
const projectUsers = { list_action: 'get_users' as const, depends_on: 'dvs_project_id' };

export function defaultSchemas(): Record<Section, FieldDescriptor[]> {
	return {
		task: [
			field('dvs_project_id', 'Project', 'relation', {
				required: true,
				filter: true,
				...relation('project_2'),
			}),
			field('name', 'Name', 'text', { required: true }),
			field('description', 'Description', 'html'),
			field('dropdown_type', 'Type', 'dropdown', {
				options: options([11, 'Bug'], [12, 'Feature'], [13, 'Question']),
			}),
			field('dropdown_priority', 'Priority', 'dropdown', {
				options: options([21, 'Low'], [22, 'Normal'], [23, 'High']),
			}),
			field('dropdown_status', 'Status', 'dropdown', {
				filter: true,
				options: options([31, 'Open'], [32, 'In progress'], [33, 'Done']),
			}),
			field('multi_dropdown_labels', 'Labels', 'dropdown_ids', {
				options: options([41, 'Backend'], [42, 'Frontend'], [43, 'Urgent']),
			}),
			field('responsible', 'Responsible', 'user_id', { filter: true, ...projectUsers }),
			field('followers', 'Followers', 'user_ids', projectUsers),
			field('ext_notif_receiver', 'External followers', 'relation_ids', relation('contact_person')),
			field('date_due', 'Due date', 'date'),
			field('estimated_hours', 'Estimated hours', 'text'),
			field('spent_hours', 'Spent hours', 'text'),
		],
		project_2: [
			field('name', 'Name', 'text', { required: true }),
			field('client', 'Client', 'relation', relation('client')),
			field('dropdown_project_status', 'Project status', 'dropdown', {
				filter: true,
				options: options([51, 'Planned'], [52, 'Running'], [53, 'Closed']),
			}),
			field('projectmanager', 'Project manager', 'user_id', {
				filter: true,
				list_action: 'get_users',
			}),
			field('date_start', 'Start date', 'date'),
			field('description', 'Description', 'html'),
		],
		contact_person: [
			field('name', 'Name', 'text', { required: true }),
			field('email', 'E-mail', 'text'),
			field('phone', 'Phone', 'text'),
			field('company', 'Company', 'relation', { filter: true, ...relation('client') }),
			field('multi_dropdown_group', 'Groups', 'dropdown_ids', {
				filter: true,
				options: options([61, 'Customer'], [62, 'Supplier'], [63, 'Press']),
			}),
			field('date_birthday', 'Birthday', 'date'),
			field('note', 'Note', 'html'),
		],
		client: [
			field('name', 'Name', 'text', { required: true }),
			field('dropdown_client_type', 'Client type', 'dropdown', {
				filter: true,
				options: options([71, 'Company'], [72, 'Public body']),
			}),
			field('multi_dropdown_group', 'Groups', 'dropdown_ids', {
				filter: true,
				options: options([81, 'Key account'], [82, 'Prospect']),
			}),
			field('projectmanager', 'Project manager', 'user_id', {
				filter: true,
				list_action: 'get_users',
			}),
			field('address', 'Address', 'text'),
			field('description', 'Description', 'html'),
		],
	};
}
