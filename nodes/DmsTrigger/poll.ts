import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { fetchPage, listDocuments } from '../shared/dms/client';
import {
	baseline,
	compare,
	createdAt,
	isUsableState,
	reachedOlder,
	orderChanges,
	serviceSeconds,
	type DmsChange,
	type DmsTriggerState,
} from '../shared/dms/changes';
import { MAX_PAGE_SIZE, type DmsDocument, type Reference } from '../shared/dms/types';
import { PackError } from '../shared/errors/pack-error';
import { baselineRecorded } from '../shared/node/durable-cursors';
import { eventId } from '../shared/node/event-id';
import { readSettings, type DmsTriggerSettings } from './settings';

/** Items a manual "Fetch Test Event" returns, so the user sees real data. */
const SAMPLE_SIZE = 10;
/** Pages read at once when the whole filtered register is scanned (as Get Many does with its concurrency). */
const SCAN_CONCURRENCY = 4;

/** `taskStatusChanged`, `contactPersonCreated`, …: the resource and the event in one name. */
function eventName(settings: DmsTriggerSettings, event: DmsChange['event']): string {
	return `${settings.resource}${event.charAt(0).toUpperCase()}${event.slice(1)}`;
}

/**
 * The change's id from the document itself: its id, the event, and the version it reports (creation time;
 * update time with the new values). The same change polled again gives the same id.
 */
export function dmsEventId(settings: DmsTriggerSettings, change: DmsChange): string {
	const { document } = change;
	const name = eventName(settings, change.event);
	if (change.event === 'created')
		return eventId('dms', name, document.dvs_document_id, String(document.date_created ?? ''));
	const after =
		change.event === 'updated'
			? Object.keys(change.changes ?? {})
					.sort()
					.map((key) => [key, change.changes![key].new])
			: change.to;
	return eventId(
		'dms',
		name,
		document.dvs_document_id,
		String(document.date_updated ?? ''),
		JSON.stringify(after ?? null),
	);
}

function itemOf(settings: DmsTriggerSettings, change: DmsChange): INodeExecutionData {
	const json: IDataObject = {
		event: eventName(settings, change.event),
		eventId: dmsEventId(settings, change),
		dvs_document_id: change.document.dvs_document_id,
	};
	if (change.changes) {
		json.changed_fields = Object.keys(change.changes);
		json.changes = change.changes as IDataObject;
	}
	if (change.event === 'statusChanged' || change.event === 'responsibleChanged') {
		json.from = (change.from ?? null) as IDataObject | null;
		json.to = (change.to ?? null) as IDataObject | null;
	}
	json.document = change.document as IDataObject;
	return { json };
}

const statusId = (doc: DmsDocument) => (doc.dropdown_status as Reference | null | undefined)?.id;

function wantedChange(settings: DmsTriggerSettings, change: DmsChange): boolean {
	if (!settings.events.has(change.event)) return false;
	if (change.event === 'statusChanged' && settings.toStatuses.length) {
		return settings.toStatuses.includes(statusId(change.document) ?? Number.NaN);
	}
	return true;
}

/**
 * Created only: newest-first pages until one reaches a document created before the cursor, so a quiet poll is
 * one request. A document seen twice (the list shifted while paging) counts once.
 */
async function listNewest(
	ctx: IPollFunctions,
	settings: DmsTriggerSettings,
	state: DmsTriggerState | undefined,
): Promise<DmsDocument[]> {
	const byId = new Map<number, DmsDocument>();
	let offset = 0;
	let cursor = state?.cursor ?? null;
	for (;;) {
		const page = await fetchPage(ctx, settings.section, offset, MAX_PAGE_SIZE, {
			filters: settings.filters,
		});
		for (const doc of page.items) byId.set(doc.dvs_document_id, doc);
		offset += page.items.length;
		// A first poll only needs the newest document's window.
		if (cursor === null && page.items.length) cursor = Math.max(...page.items.map(createdAt));
		if (reachedOlder(cursor, page.items) || page.items.length === 0 || offset >= page.total)
			return [...byId.values()];
	}
}

async function listScope(
	ctx: IPollFunctions,
	settings: DmsTriggerSettings,
	state: DmsTriggerState | undefined,
): Promise<DmsDocument[]> {
	if (settings.mode === 'window') return await listNewest(ctx, settings, state);
	return await listDocuments(ctx, settings.section, {
		filters: settings.filters,
		concurrency: SCAN_CONCURRENCY,
	});
}

function sample(settings: DmsTriggerSettings, docs: DmsDocument[]): DmsChange[] {
	const event =
		(['statusChanged', 'responsibleChanged', 'updated', 'created'] as const).find((name) =>
			settings.events.has(name),
		) ?? 'created';
	const time = (doc: DmsDocument) =>
		serviceSeconds(event === 'created' ? doc.date_created : doc.date_updated);
	const changes = [...docs]
		.sort((a, b) => (time(b) || 0) - (time(a) || 0) || b.dvs_document_id - a.dvs_document_id)
		.map(
			(document): DmsChange =>
				event === 'statusChanged' || event === 'responsibleChanged'
					? {
							event,
							document,
							from: null,
							to: document[event === 'statusChanged' ? 'dropdown_status' : 'responsible'] ?? null,
							at: time(document),
						}
					: {
							event,
							document,
							...(event === 'updated' ? { changes: {} } : {}),
							at: time(document),
						},
		);
	return changes.filter((change) => wantedChange(settings, change)).slice(0, SAMPLE_SIZE);
}

function checkCap(settings: DmsTriggerSettings, docs: DmsDocument[]): void {
	if (docs.length <= settings.maxTracked) return;
	throw new PackError(
		`The filtered register holds ${docs.length} documents, more than the ${settings.maxTracked} tracked for change detection`,
		{
			kind: 'input',
			description:
				'Nothing was reported and nothing is lost: the next poll after a fix reports every change since the last successful one (unless the filters changed). Raise "Max Tracked Documents", filter by project or status, or keep only the Created event, which needs no snapshot.',
		},
	);
}

export async function pollDms(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	if (ctx.getMode() === 'manual') {
		// One page of the newest documents; nothing is stored.
		const page = await fetchPage(ctx, settings.section, 0, MAX_PAGE_SIZE, {
			filters: settings.filters,
		});
		const items = sample(settings, page.items).map((change) => itemOf(settings, change));
		if (items.length) return [items];
		throw new PackError('Nothing matching the settings was found in the register', {
			kind: 'input',
			description:
				'Create or change a document that matches the filters, then fetch a test event again.',
		});
	}

	const staticData = ctx.getWorkflowStaticData('node');
	const scope = `${settings.section}|${JSON.stringify(settings.filters)}|${settings.mode}|${JSON.stringify(settings.fields)}`;
	const stored = isUsableState(staticData.state, scope, settings.mode)
		? staticData.state
		: undefined;
	const docs = await listScope(ctx, settings, stored);
	checkCap(settings, docs);
	// First poll after activation (or after the filters or events changed): record, report nothing.
	if (!stored) {
		staticData.state = baseline(
			scope,
			docs,
			settings.mode,
			settings.fields,
		) as unknown as IDataObject;
		return baselineRecorded();
	}
	const { changes, next, changed } = compare(stored, docs, settings.mode, settings.fields);
	const items = orderChanges(changes)
		.filter((change) => wantedChange(settings, change))
		.map((change) => itemOf(settings, change));
	// Every request is done: only now does the state move on (a failed poll is repeated in full). An unchanged
	// state is not written, so a quiet poll does not make n8n save the workflow.
	if (changed) staticData.state = next as unknown as IDataObject;
	return items.length ? [items] : null;
}
