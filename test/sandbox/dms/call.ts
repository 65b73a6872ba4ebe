import type { Reply } from '../http/reply.ts';
import type { Account } from '../types.ts';
import type { Section } from './schema.ts';
import type { DmsDocument, DmsState, Organisation } from './state.ts';
import { InvalidParams } from './values.ts';

export type Body = Record<string, unknown>;

/** One authorised DMS call, as the action handlers see it. */
export interface DmsCall {
	dms: DmsState;
	org: Organisation;
	section: Section;
	account: Account;
	/** Action parameters, without `user` and `user_access_token`. */
	body: Body;
}

export type DmsAction = (call: DmsCall) => Reply;

/** The item does not exist: 405 in this API, like a missing permission. */
export class NotFound extends Error {}

export function requireInteger(body: Body, name: string): number {
	const value = body[name];
	if (typeof value !== 'number' || !Number.isInteger(value))
		throw new InvalidParams(`${name}: integer required`);
	return value;
}

export function requireObject(body: Body, name: string): Body {
	const value = body[name];
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new InvalidParams(`${name}: object required`);
	return value as Body;
}

export function documentOf(call: DmsCall, id: number): DmsDocument {
	const doc = call.org.documents.get(id);
	if (!doc || doc.section !== call.section) throw new NotFound();
	return doc;
}
