import type { Store } from '../store.ts';
import { defaultSchemas, type FieldDescriptor, type Section } from './schema.ts';

export interface DmsUser {
	id: number;
	display_name: string;
	email: string;
}

export interface DmsDocument {
	id: number;
	section: Section;
	/** Stored in the input form: ids for dropdowns, users and relations; strings for text, date, html. */
	values: Record<string, unknown>;
	created: number;
	updated: number;
	creatorId: number;
	fullNumber?: string;
}

export interface DmsComment {
	id: number;
	taskId: number;
	authorId: number;
	/** As stored: HTML characters escaped. */
	text: string;
	at: number;
}

export interface Notification {
	seq: number;
	at: number;
	event: 'task_created' | 'task_updated' | 'comment_added' | 'mention';
	section: Section;
	documentId: number;
	actorId: number;
	recipients: Array<{ kind: 'user' | 'contact_person'; id: number; email: string }>;
}

export interface Organisation {
	id: number;
	name: string;
	dmsEnabled: boolean;
	/** Account id → sections the account's group may write (the DMS demands write permission even for reads). */
	members: Map<number, Set<Section>>;
	users: Map<number, DmsUser>;
	schemas: Record<Section, FieldDescriptor[]>;
	documents: Map<number, DmsDocument>;
	/** Project id → user ids of its workers (what task get_users returns). */
	workers: Map<number, Set<number>>;
	comments: DmsComment[];
	notifications: Notification[];
}

const ALL_SECTIONS = new Set<Section>(['task', 'project_2', 'contact_person', 'client']);

/** Seeded ids, exported for tests. */
export const DMS_SEED = Object.freeze({
	organisation: 1,
	users: { demo: 1001, alice: 2001, bob: 2002, carol: 2003, twofa: 1003, tasks: 1004 },
	projects: { website: 11, audit: 12, internal: 13 },
	clients: { acme: 21, globex: 22 },
	contacts: { erin: 31, frank: 32 },
	tasks: { first: 41, second: 42, third: 43 },
});

/** The document-management state of the sandbox: one organisation, seeded like a small real one. */
export class DmsState {
	readonly organisations = new Map<number, Organisation>();
	/** Why the last 400 was given: the API answers with an empty body, so tests read the reason here. */
	lastRejection: string | null = null;
	private readonly store: Store;
	private nextId = 100;
	private nextComment = 1;
	private nextNotification = 1;
	private taskNumber = 1;

	constructor(store: Store) {
		this.store = store;
		this.reset();
	}

	now(): number {
		return this.store.now();
	}

	reset(): void {
		this.organisations.clear();
		this.lastRejection = null;
		this.nextId = 100;
		this.nextComment = 1;
		this.nextNotification = 1;
		this.taskNumber = 1;
		this.seed();
	}

	organisationOf(accountId: number): Organisation | undefined {
		for (const org of this.organisations.values()) if (org.members.has(accountId)) return org;
		return undefined;
	}

	newId(): number {
		return this.nextId++;
	}

	insert(
		org: Organisation,
		doc: Omit<DmsDocument, 'id' | 'created' | 'updated'> & { id?: number; created?: number },
	): DmsDocument {
		const id = doc.id ?? this.newId();
		const created = doc.created ?? this.now();
		const stored: DmsDocument = { ...doc, id, created, updated: created };
		if (doc.section === 'task')
			stored.fullNumber = `T-${String(this.taskNumber++).padStart(5, '0')}`;
		org.documents.set(id, stored);
		return stored;
	}

	addComment(org: Organisation, taskId: number, authorId: number, text: string): DmsComment {
		const comment = { id: this.nextComment++, taskId, authorId, text, at: this.now() };
		org.comments.push(comment);
		return comment;
	}

	notify(org: Organisation, entry: Omit<Notification, 'seq' | 'at'>): void {
		if (entry.recipients.length === 0) return;
		org.notifications.push({ seq: this.nextNotification++, at: this.now(), ...entry });
	}

	/** Many tasks at once for paging tests and the benchmark; creation times one second apart, oldest first. */
	bulkCreateTasks(
		org: Organisation,
		count: number,
		projectId: number,
		creatorId: number,
	): number[] {
		const ids: number[] = [];
		const start = this.now() - count * 1000;
		for (let i = 0; i < count; i++) {
			const doc = this.insert(org, {
				section: 'task',
				values: {
					dvs_project_id: projectId,
					name: `Bulk task ${i + 1}`,
					dropdown_status: 31 + (i % 3),
					followers: [],
				},
				creatorId,
				created: start + i * 1000,
			});
			ids.push(doc.id);
		}
		return ids;
	}

	private seed(): void {
		const { users, projects, clients, contacts, tasks } = DMS_SEED;
		const org: Organisation = {
			id: DMS_SEED.organisation,
			name: 'Demo Organisation',
			dmsEnabled: true,
			members: new Map([
				[users.demo, new Set(ALL_SECTIONS)],
				// A member whose group may write tasks only: other sections answer 405.
				[users.twofa, new Set<Section>(['task'])],
				[users.tasks, new Set<Section>(['task'])],
			]),
			users: new Map(
				[
					[users.demo, 'Demo User', 'demo@example.com'],
					[users.alice, 'Alice Archer', 'alice@example.com'],
					[users.bob, 'Bob Baker', 'bob@example.com'],
					[users.carol, 'Carol Chen', 'carol@example.com'],
					[users.twofa, 'Two Factor', 'twofa@example.com'],
					[users.tasks, 'Task Writer', 'tasks@example.com'],
				].map(([id, display_name, email]) => [
					id as number,
					{ id: id as number, display_name: display_name as string, email: email as string },
				]),
			),
			schemas: defaultSchemas(),
			documents: new Map(),
			workers: new Map([
				[projects.website, new Set([users.demo, users.alice, users.bob, users.tasks])],
				[projects.audit, new Set([users.demo, users.bob])],
				// The demo user does not work on this project: it cannot be made responsible there.
				[projects.internal, new Set([users.carol])],
			]),
			comments: [],
			notifications: [],
		};
		this.organisations.set(org.id, org);
		const day = 86_400_000;
		const t0 = this.now() - 30 * day;
		const add = (id: number, section: Section, values: Record<string, unknown>, age: number) =>
			this.insert(org, { id, section, values, creatorId: users.demo, created: t0 + age * day });
		add(
			clients.acme,
			'client',
			{
				name: 'Acme Corp',
				dropdown_client_type: 71,
				multi_dropdown_group: [81],
				projectmanager: users.alice,
			},
			0,
		);
		add(
			clients.globex,
			'client',
			{
				name: 'Globex',
				dropdown_client_type: 72,
				multi_dropdown_group: [82],
				description: '<p>Public <b>body</b></p>',
			},
			1,
		);
		add(
			projects.website,
			'project_2',
			{
				name: 'Website relaunch',
				client: clients.acme,
				dropdown_project_status: 52,
				projectmanager: users.demo,
				date_start: '2026-01-05',
			},
			2,
		);
		add(
			projects.audit,
			'project_2',
			{ name: 'Annual audit', client: clients.globex, dropdown_project_status: 51 },
			3,
		);
		add(projects.internal, 'project_2', { name: 'Internal tools', dropdown_project_status: 52 }, 4);
		add(
			contacts.erin,
			'contact_person',
			{
				name: 'Erin Example',
				email: 'erin@acme.example',
				company: clients.acme,
				multi_dropdown_group: [61],
			},
			5,
		);
		add(
			contacts.frank,
			'contact_person',
			{
				name: 'Frank Foreign',
				email: 'frank@globex.example',
				company: clients.globex,
				multi_dropdown_group: [62, 63],
			},
			6,
		);
		add(
			tasks.first,
			'task',
			{
				dvs_project_id: projects.website,
				name: 'Draft the sitemap',
				description: '<p>All <i>pages</i></p>',
				dropdown_status: 32,
				dropdown_priority: 23,
				responsible: users.alice,
				followers: [users.bob],
				ext_notif_receiver: [contacts.erin],
				date_due: '2026-03-01',
				estimated_hours: '6',
				multi_dropdown_labels: [42],
			},
			7,
		);
		add(
			tasks.second,
			'task',
			{
				dvs_project_id: projects.audit,
				name: 'Collect invoices',
				dropdown_status: 31,
				responsible: users.bob,
				estimated_hours: '2.5',
			},
			8,
		);
		add(
			tasks.third,
			'task',
			{ dvs_project_id: projects.website, name: 'Pick a font', dropdown_status: 33 },
			9,
		);
		this.nextId = 1000;
	}
}

const STATES = new WeakMap<Store, DmsState>();

/** One DMS state per sandbox store, created on first use. */
export function dmsOf(store: Store): DmsState {
	let state = STATES.get(store);
	if (!state) {
		state = new DmsState(store);
		STATES.set(store, state);
	}
	return state;
}
