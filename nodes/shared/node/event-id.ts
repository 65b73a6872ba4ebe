import { createHash } from 'node:crypto';

/** What identifies one change: the object, its version (ETag, timestamp, values) and the kind of event. */
export type EventIdPart = string | number | boolean | null | undefined;

/**
 * The `eventId` every trigger item carries: a digest of what the service says about the change, never of
 * the poll (its time, a counter, the order of items). The same change polled again (after a crash, a
 * restart, a replayed poll) gives the same id, so a workflow can de-duplicate on it whatever n8n does.
 */
export function eventId(trigger: string, event: string, ...parts: EventIdPart[]): string {
	const text = JSON.stringify([trigger, event, ...parts.map((part) => part ?? null)]);
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
