import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { claimed, mayHaveBeenApplied } from '../storage/reconcile';
import { outcomeOf, withOutcome } from '../errors/outcome';
import { credentialUserId, getDocument, listDocuments } from './client';
import { updateApplied } from './operations';
import { SECTION_LABEL, type DmsDocument, type FieldDescriptor, type Section } from './types';

/** The newest documents looked at, before and after: get_documents lists newest first. */
const WINDOW = 50;
/** A create not seen at once is looked for once more after this pause, before it is sent again. */
const SETTLE_MS = 1000;

const creatorOf = (doc: DmsDocument): string | undefined => {
	const creator = doc.creator as { id?: unknown } | null | undefined;
	return creator?.id === undefined || creator.id === null ? undefined : String(creator.id);
};

/**
 * `YYYY-MM-DD HH:MM:SS` in the service's stored clock. The documents name no time zone, and the service's
 * `Date` may come from another host: only stored times are compared with each other, as strings of one format.
 */
const createdAt = (doc: DmsDocument): string | undefined =>
	typeof doc.date_created === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(doc.date_created)
		? doc.date_created
		: undefined;

/** Whether a new document can only be this create's: what no other writer's document can have. */
export function onlyOurs(doc: DmsDocument, userId: string, since: string | undefined): boolean {
	if (creatorOf(doc) !== userId) return false;
	const created = createdAt(doc);
	return created !== undefined && (since === undefined || created >= since);
}

/** A read of a lost answer's proof that failed: the write may still have been applied, never "nothing changed". */
export function checkFailed(
	ctx: IExecuteFunctions,
	error: unknown,
	label: string,
	itemIndex: number,
): Error {
	if (outcomeOf(error)) return error as Error;
	const reason = (error as Error | undefined)?.message ?? String(error);
	return withOutcome(
		mayHaveBeenApplied(
			ctx,
			itemIndex,
			`the answer to the ${label} write was lost, and the read that would have settled it failed (${reason})`,
			`Check the ${label} (Get, or Get Many newest first) before running this item again; the node did not send it twice.`,
		),
		'unknown',
	);
}

/**
 * The proof of a create whose answer was lost (a documented choice: the documents give no idempotency key
 * and no creation token). Before the create, the ids of the newest documents (a task's: of its project) and
 * the newest `date_created` among them (the service's stored clock when the write began) are noted. After a
 * lost answer the newest are read again; a candidate is a document not there before, not adopted by another
 * item of this run, whose `creator` is the credential's user and whose `date_created` is not earlier than the
 * noted time: another user's document with the same values is never one. None (also after a pause): not
 * created, so it is sent again, unless the write timed out (the service may still be applying it: then "may
 * have been applied"). Exactly one, holding every value sent: created. Anything else (several, or one that
 * differs, or more new documents than the window shows): "may have been applied", naming the candidates.
 * Undefined when the first read fails: the create is then reported "may have been applied" as before.
 */
export async function prepareCreateProof(
	ctx: IExecuteFunctions,
	section: Section,
	params: Record<string, unknown>,
	schema: FieldDescriptor[],
	itemIndex: number,
): Promise<
	| ((failure?: { timedOut: boolean }) => Promise<{ dvs_document_id: number } | undefined>)
	| undefined
> {
	const project = section === 'task' ? Number(params.dvs_project_id) : NaN;
	const filters = Number.isFinite(project) ? { dvs_project_id: [project] } : undefined;
	const newest = async () =>
		await listDocuments(ctx, section, { filters, max: WINDOW, pageSize: WINDOW, itemIndex });
	const before = await newest().catch(() => undefined);
	if (!before) return undefined;
	const known = new Set(before.map((doc) => doc.dvs_document_id));
	const since = before
		.map(createdAt)
		.reduce<string | undefined>((max, at) => (at && (!max || at > max) ? at : max), undefined);
	const html = new Set(schema.filter((field) => field.type === 'html').map((field) => field.name));
	const listed = Object.fromEntries(Object.entries(params).filter(([name]) => !html.has(name)));
	const label = SECTION_LABEL[section].one;
	const check = `Open the ${label}s${filters ? ` of project ${project}` : ''} (Get Many, newest first) before running this item again; the node did not send it twice.`;
	const unknown = (message: string, description: string) =>
		withOutcome(mayHaveBeenApplied(ctx, itemIndex, message, description), 'unknown');

	const settle = async (failure?: { timedOut: boolean }) => {
		const userId = await credentialUserId(ctx, itemIndex).catch(() => undefined);
		if (userId === undefined)
			throw unknown(
				`the answer to the ${label} create was lost, and the credential's user could not be read to tell its ${label}s from others'`,
				check,
			);
		for (let look = 0; look < 2; look++) {
			if (look > 0) await sleep(SETTLE_MS);
			const after = await newest();
			const taken = claimed(ctx);
			const fresh = after.filter(
				(doc) =>
					!known.has(doc.dvs_document_id) &&
					!taken.has(`dms:${doc.dvs_document_id}`) &&
					onlyOurs(doc, userId, since),
			);
			const overflow =
				known.size > 0
					? !after.some((doc) => known.has(doc.dvs_document_id))
					: after.length >= WINDOW;
			if (fresh.length === 0 && !overflow) continue;
			const matching = [];
			for (const doc of fresh) {
				if (!updateApplied(doc, listed)) continue;
				// Lists omit HTML fields: a candidate is read whole when one was sent.
				if (
					html.size > 0 &&
					Object.keys(params).some((name) => html.has(name)) &&
					!updateApplied(await getDocument(ctx, section, doc.dvs_document_id, itemIndex), params)
				)
					continue;
				matching.push(doc);
			}
			if (matching.length === 1 && fresh.length === 1 && !overflow) {
				taken.add(`dms:${matching[0].dvs_document_id}`);
				return { dvs_document_id: matching[0].dvs_document_id };
			}
			const ids = fresh.map((doc) => doc.dvs_document_id).join(', ');
			throw unknown(
				overflow
					? `the answer to the ${label} create was lost, and more new ${label}s than the ${WINDOW} newest appeared since it was sent`
					: `the answer to the ${label} create was lost, and the new ${label}s since it was sent (${ids}) cannot be told apart: ${matching.length} of them hold the values sent`,
				`Another run with this credential may have created ${label}s meanwhile. ${check}`,
			);
		}
		if (failure?.timedOut)
			throw unknown(
				`the ${label} create timed out and no new ${label} of this user is there yet: the service may still be applying it`,
				`${check} If it appears later, it is this create.`,
			);
		return undefined;
	};
	return async (failure) =>
		await settle(failure).catch((error: unknown) => {
			throw checkFailed(ctx, error, label, itemIndex);
		});
}
