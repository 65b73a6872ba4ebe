import { empty, json, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Ctx, Route } from '../router.ts';
import { documentOf, NotFound, requireInteger, type Body, type DmsAction } from '../dms/call.ts';
import { ACTIONS, SECTIONS, type Section } from '../dms/schema.ts';
import { dmsOf, type Organisation } from '../dms/state.ts';
import { dmsWrites } from '../dms/writes.ts';
import { InvalidParams, matchesFilters, renderDocument } from '../dms/values.ts';

const MAX_LIMIT = 200;

function registerUsers(org: Organisation, section: Section): number[] {
	const ids = new Set<number>();
	for (const [member, sections] of org.members)
		if (sections.has(section) && org.users.has(member)) ids.add(member);
	const userFields = org.schemas[section]
		.filter((field) => field.type === 'user_id' || field.type === 'user_ids')
		.map((field) => field.name);
	for (const doc of org.documents.values()) {
		if (doc.section !== section) continue;
		for (const name of userFields)
			for (const id of [doc.values[name]].flat())
				if (typeof id === 'number' && org.users.has(id)) ids.add(id);
	}
	return [...ids];
}

const reads: Record<string, DmsAction> = {
	get_fields: ({ org, section }) => json({ fields: org.schemas[section] }),
	get_users: ({ org, section, body }) => {
		// Projects and clients: the users their user fields name plus the members whose group writes them.
		let ids = registerUsers(org, section);
		if (section === 'task') {
			const projectId = requireInteger(body, 'dvs_project_id');
			const project = org.documents.get(projectId);
			if (!project || project.section !== 'project_2')
				throw new InvalidParams(`no project ${projectId}`);
			ids = [...(org.workers.get(projectId) ?? [])];
		}
		const users = ids
			.sort((a, b) => a - b)
			.map((id) => ({ id, display_name: org.users.get(id)!.display_name }));
		return json({ users });
	},
	get_document: (call) =>
		json(
			renderDocument(
				call.org,
				documentOf(call, requireInteger(call.body, 'dvs_document_id')),
				true,
			),
		),
	get_documents: ({ org, section, body }) => {
		const limit = body.limit === undefined ? 50 : requireInteger(body, 'limit');
		const offset = body.offset === undefined ? 0 : requireInteger(body, 'offset');
		if (limit < 1 || limit > MAX_LIMIT || offset < 0)
			throw new InvalidParams(`limit must be 1..${MAX_LIMIT}, offset at least 0`);
		const filters = body.filters ?? {};
		if (typeof filters !== 'object' || filters === null || Array.isArray(filters))
			throw new InvalidParams('filters: object required');
		const matching = [...org.documents.values()]
			.filter((doc) => doc.section === section && matchesFilters(org, doc, filters as Body))
			.sort((a, b) => b.created - a.created || b.id - a.id);
		const items = matching
			.slice(offset, offset + limit)
			.map((doc) => renderDocument(org, doc, false));
		return json({ items, total: matching.length, limit, offset });
	},
};

const HANDLERS: Record<string, DmsAction> = { ...reads, ...dmsWrites };

function credentialsOf(req: SandboxRequest): { body: Body; user?: string; token?: string } {
	const body =
		typeof req.json === 'object' && req.json !== null && !Array.isArray(req.json)
			? (req.json as Body)
			: {};
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	return { body, user: text(body.user), token: text(body.user_access_token) };
}

function handle(req: SandboxRequest, ctx: Ctx): Reply {
	if (req.method !== 'POST') return empty(405);
	const [sectionName, action] = req.params;
	const { body, user, token } = credentialsOf(req);
	ctx.entry.fields = Object.keys(body);
	const dms = dmsOf(ctx.store);
	// Only user + user_access_token in the JSON body count: cookies, passwords and Basic are refused.
	const account = user && token ? ctx.store.accountByLogin(user) : undefined;
	if (!account || !account.tokens.includes(token!)) {
		ctx.entry.authMethod = user && token ? 'token:failed' : null;
		return empty(401);
	}
	ctx.entry.authMethod = 'token:ok';
	const org = dms.organisationOf(account.id);
	if (!org) return empty(401);
	if (!(SECTIONS as readonly string[]).includes(sectionName)) return empty(400);
	const section = sectionName as Section;
	if (!org.dmsEnabled || !org.members.get(account.id)?.has(section)) return empty(405);
	if (!ACTIONS[section].includes(action) || !HANDLERS[action]) return empty(405);
	const params: Body = { ...body };
	delete params.user;
	delete params.user_access_token;
	try {
		return HANDLERS[action]({ dms, org, section, account, body: params });
	} catch (error) {
		if (error instanceof InvalidParams) {
			dms.lastRejection = error.message;
			return empty(400);
		}
		if (error instanceof NotFound) return empty(405);
		throw error;
	}
}

/** `POST {base_url}/api_dvs/<dvs_section>/<action>` with a JSON body; every error has an empty body. */
export const dmsRoutes: Route[] = [
	{
		api: 'dms',
		methods: '*',
		path: /^\/api_dvs\/([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)\/?$/,
		body: 'json',
		action: (req) => req.params[1] ?? null,
		handle,
	},
];
