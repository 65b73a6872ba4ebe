import { json, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Services } from '../router.ts';
import { FIELD_TYPES, SECTIONS, type FieldDescriptor, type Section } from './schema.ts';
import { DMS_SEED, dmsOf, type Organisation } from './state.ts';

type Body = Record<string, unknown>;
type ControlHandler = (body: Body, services: Services, req: SandboxRequest) => Reply;

function organisation(services: Services): Organisation {
	return dmsOf(services.store).organisations.get(DMS_SEED.organisation)!;
}

function section(value: unknown): Section {
	if (!(SECTIONS as readonly unknown[]).includes(value))
		throw new Error(`unknown section ${String(value)}`);
	return value as Section;
}

function checkedFields(value: unknown): FieldDescriptor[] {
	if (!Array.isArray(value)) throw new Error('fields must be an array');
	for (const field of value as FieldDescriptor[]) {
		if (!field?.name || !(FIELD_TYPES as readonly string[]).includes(field.type))
			throw new Error(`bad field ${JSON.stringify(field)}`);
	}
	return (value as FieldDescriptor[]).map((field) => ({
		...field,
		required: field.required ?? false,
		filter: field.filter ?? false,
		label: field.label ?? field.name,
	}));
}

/** `/__sandbox/dms/…`: the organisation's schema, members, users, bulk data and the notification log. */
export const dmsControl: Record<string, ControlHandler> = {
	'GET dms/state': (_b, s) => {
		const dms = dmsOf(s.store);
		const org = organisation(s);
		const counts: Record<string, number> = {};
		for (const doc of org.documents.values()) counts[doc.section] = (counts[doc.section] ?? 0) + 1;
		return json({
			dmsEnabled: org.dmsEnabled,
			counts,
			lastRejection: dms.lastRejection,
			users: [...org.users.values()],
		});
	},
	'GET dms/notifications': (_b, s) => json({ notifications: organisation(s).notifications }),
	'DELETE dms/notifications': (_b, s) => (
		(organisation(s).notifications.length = 0),
		json({ notifications: [] })
	),
	'GET dms/comments': (_b, s, req) => {
		const task = req.query.get('task');
		const comments = organisation(s).comments.filter(
			(comment) => !task || comment.taskId === Number(task),
		);
		return json({ comments });
	},
	'GET dms/schema': (_b, s) => json(organisation(s).schemas),
	/** Replaces one register's field list: `{section, fields}`. */
	'POST dms/schema': (body, s) => {
		const org = organisation(s);
		org.schemas[section(body.section)] = checkedFields(body.fields);
		return json({ fields: org.schemas[section(body.section)] });
	},
	/** Bulk tasks for paging tests and benchmarks: `{count, projectId?}`. */
	'POST dms/tasks': (body, s) => {
		const count = Number(body.count ?? 0);
		if (!Number.isInteger(count) || count < 1 || count > 100_000)
			throw new Error('count must be 1..100000');
		const ids = dmsOf(s.store).bulkCreateTasks(
			organisation(s),
			count,
			Number(body.projectId ?? DMS_SEED.projects.website),
			DMS_SEED.users.demo,
		);
		return json({ created: ids.length, firstId: ids[0], lastId: ids[ids.length - 1] });
	},
	'PATCH dms/organisation': (body, s) => {
		const org = organisation(s);
		if (typeof body.dmsEnabled === 'boolean') org.dmsEnabled = body.dmsEnabled;
		return json({ dmsEnabled: org.dmsEnabled });
	},
	/** `{user, sections}`: the sections an account's group may write; `sections: null` removes it from the organisation. */
	'PATCH dms/access': (body, s) => {
		const account = s.store.accountByLogin(String(body.user ?? ''));
		if (!account) throw new Error('no such account');
		const org = organisation(s);
		if (body.sections === null) org.members.delete(account.id);
		else org.members.set(account.id, new Set((body.sections as unknown[]).map(section)));
		return json({ user: account.username, sections: body.sections });
	},
	/** `{id, display_name, email, projects?}`: a user of the organisation, optionally a worker of projects. */
	'POST dms/users': (body, s) => {
		const org = organisation(s);
		const id = Number(body.id);
		org.users.set(id, {
			id,
			display_name: String(body.display_name ?? `User ${id}`),
			email: String(body.email ?? `user${id}@example.com`),
		});
		for (const project of (body.projects as number[] | undefined) ?? []) {
			if (!org.workers.has(project)) org.workers.set(project, new Set());
			org.workers.get(project)!.add(id);
		}
		return json(org.users.get(id));
	},
};
