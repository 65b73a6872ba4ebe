import { json } from '../http/reply.ts';
import {
	documentOf,
	requireInteger,
	requireObject,
	type Body,
	type DmsAction,
	type DmsCall,
} from './call.ts';
import type { FieldDescriptor } from './schema.ts';
import type { DmsDocument, Notification, Organisation } from './state.ts';
import { checkValue, InvalidParams, isEmptyValue } from './values.ts';

/** Fields that name users depend on other fields (the project), so those are checked first. */
function checkOrder(fields: FieldDescriptor[]): FieldDescriptor[] {
	const isUser = (field: FieldDescriptor) => field.type === 'user_id' || field.type === 'user_ids';
	return [...fields.filter((field) => !isUser(field)), ...fields.filter(isUser)];
}

/** Only declared fields are accepted; unknown ones are ignored (rule 1). */
function applyParams(
	call: DmsCall,
	params: Body,
	current: Record<string, unknown>,
): Record<string, unknown> {
	const next = { ...current };
	for (const field of checkOrder(call.org.schemas[call.section])) {
		if (!Object.hasOwn(params, field.name)) continue;
		const value = params[field.name];
		if (field.required && isEmptyValue(value)) throw new InvalidParams(`${field.name}: required`);
		next[field.name] = checkValue(call.org, call.section, field, value, next);
	}
	return next;
}

function defaults(
	fields: FieldDescriptor[],
	values: Record<string, unknown>,
): Record<string, unknown> {
	const out = { ...values };
	for (const field of fields) {
		if (out[field.name] !== undefined) continue;
		// Optional fields receive defaults (rule 2): empty selections, and the first status.
		if (field.type.endsWith('_ids')) out[field.name] = [];
		else if (field.name === 'dropdown_status' && field.options?.length)
			out[field.name] = field.options[0].id;
	}
	return out;
}

/** Followers and external followers get the e-mails of task changes; the acting user does not. */
function taskRecipients(
	org: Organisation,
	doc: DmsDocument,
	actorId: number,
): Notification['recipients'] {
	const recipients: Notification['recipients'] = [];
	for (const id of (doc.values.followers as number[] | undefined) ?? []) {
		const user = org.users.get(id);
		if (user && id !== actorId) recipients.push({ kind: 'user', id, email: user.email });
	}
	for (const id of (doc.values.ext_notif_receiver as number[] | undefined) ?? []) {
		const email = org.documents.get(id)?.values.email;
		if (typeof email === 'string' && email) recipients.push({ kind: 'contact_person', id, email });
	}
	return recipients;
}

function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#039;');
}

export const dmsWrites: Record<string, DmsAction> = {
	create_document: (call) => {
		const params = requireObject(call.body, 'create_params');
		const values = defaults(call.org.schemas[call.section], applyParams(call, params, {}));
		for (const field of call.org.schemas[call.section]) {
			if (field.required && isEmptyValue(values[field.name]))
				throw new InvalidParams(`${field.name}: required`);
		}
		const doc = call.dms.insert(call.org, {
			section: call.section,
			values,
			creatorId: call.account.id,
		});
		if (call.section === 'task') {
			const recipients = taskRecipients(call.org, doc, call.account.id);
			call.dms.notify(call.org, {
				event: 'task_created',
				section: 'task',
				documentId: doc.id,
				actorId: call.account.id,
				recipients,
			});
		}
		return json({ dvs_document_id: doc.id });
	},
	update_document: (call) => {
		const doc = documentOf(call, requireInteger(call.body, 'dvs_document_id'));
		const params = requireObject(call.body, 'update_params');
		// Rule 4: the project of a task is fixed at creation.
		if (
			call.section === 'task' &&
			Object.hasOwn(params, 'dvs_project_id') &&
			params.dvs_project_id !== doc.values.dvs_project_id
		) {
			throw new InvalidParams('dvs_project_id cannot be changed');
		}
		doc.values = applyParams(call, params, doc.values);
		doc.updated = call.dms.now();
		if (call.section === 'task') {
			const recipients = taskRecipients(call.org, doc, call.account.id);
			call.dms.notify(call.org, {
				event: 'task_updated',
				section: 'task',
				documentId: doc.id,
				actorId: call.account.id,
				recipients,
			});
		}
		return json({ dvs_document_id: doc.id });
	},
	add_comment: (call) => {
		const doc = documentOf(call, requireInteger(call.body, 'dvs_document_id'));
		const comment = call.body.comment;
		if (typeof comment !== 'string' || comment.trim() === '')
			throw new InvalidParams('comment: non-empty string required');
		call.dms.addComment(call.org, doc.id, call.account.id, escapeHtml(comment));
		const actorId = call.account.id;
		const mentioned = new Set<number>();
		// Rule 6: only @[USER:<id>] of a user of the organisation is a mention; other forms stay text.
		for (const match of comment.matchAll(/@\[USER:(\d+)\]/g)) {
			const id = Number(match[1]);
			if (call.org.users.has(id)) mentioned.add(id);
		}
		const followers = taskRecipients(call.org, doc, actorId).filter(
			(entry) => !(entry.kind === 'user' && mentioned.has(entry.id)),
		);
		call.dms.notify(call.org, {
			event: 'comment_added',
			section: 'task',
			documentId: doc.id,
			actorId,
			recipients: followers,
		});
		const mentions = [...mentioned].map((id) => ({
			kind: 'user' as const,
			id,
			email: call.org.users.get(id)!.email,
		}));
		call.dms.notify(call.org, {
			event: 'mention',
			section: 'task',
			documentId: doc.id,
			actorId,
			recipients: mentions,
		});
		return json({ dvs_document_id: doc.id });
	},
};
