import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { claimed, mayHaveBeenApplied } from '../storage/reconcile';
import { getDocument, listDocuments } from './client';
import { updateApplied } from './operations';
import { SECTION_LABEL, type FieldDescriptor, type Section } from './types';

/** The newest documents looked at, before and after: get_documents lists newest first. */
const WINDOW = 50;
/** A create not seen at once is looked for once more after this pause, before it is sent again. */
const SETTLE_MS = 1000;

/**
 * The proof of a create whose answer was lost (a documented choice: the documents give no idempotency key
 * and no creation token). Before the create, the ids of the newest documents (a task's: of its project) are
 * noted. After a lost answer the newest are read again: the documents not there before and not created by
 * another item of this run are this create's candidates. None (also after a pause): not created, so it is
 * sent again. Exactly one, holding every value sent: created. Anything else (several, or one that differs,
 * or more new documents than the window shows): "may have been applied", naming the candidates.
 * Undefined when the first read fails: the create is then reported "may have been applied" as before.
 */
export async function prepareCreateProof(
	ctx: IExecuteFunctions,
	section: Section,
	params: Record<string, unknown>,
	schema: FieldDescriptor[],
	itemIndex: number,
): Promise<(() => Promise<{ dvs_document_id: number } | undefined>) | undefined> {
	const project = section === 'task' ? Number(params.dvs_project_id) : NaN;
	const filters = Number.isFinite(project) ? { dvs_project_id: [project] } : undefined;
	const newest = async () =>
		await listDocuments(ctx, section, { filters, max: WINDOW, pageSize: WINDOW, itemIndex });
	const before = await newest().catch(() => undefined);
	if (!before) return undefined;
	const known = new Set(before.map((doc) => doc.dvs_document_id));
	const html = new Set(schema.filter((field) => field.type === 'html').map((field) => field.name));
	const listed = Object.fromEntries(Object.entries(params).filter(([name]) => !html.has(name)));
	const label = SECTION_LABEL[section].one;
	const check = `Open the ${label}s${filters ? ` of project ${project}` : ''} (Get Many, newest first) before running this item again; the node did not send it twice.`;

	return async () => {
		for (let look = 0; look < 2; look++) {
			if (look > 0) await sleep(SETTLE_MS);
			const after = await newest();
			const taken = claimed(ctx);
			const fresh = after.filter(
				(doc) => !known.has(doc.dvs_document_id) && !taken.has(`dms:${doc.dvs_document_id}`),
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
			throw mayHaveBeenApplied(
				ctx,
				itemIndex,
				overflow
					? `the answer to the ${label} create was lost, and more new ${label}s than the ${WINDOW} newest appeared since it was sent`
					: `the answer to the ${label} create was lost, and the new ${label}s since it was sent (${ids}) cannot be told apart: ${matching.length} of them hold the values sent`,
				`Another user may have created ${label}s meanwhile. ${check}`,
			);
		}
		return undefined;
	};
}
