import type { INodeExecutionData } from 'n8n-workflow';

/** n8n's own reading of a boolean setting (`true` or `1`, any case), with its default when unset. */
function setting(name: string, fallback: boolean): boolean {
	const value = process.env[name];
	return value === undefined ? fallback : ['true', '1'].includes(value.toLowerCase());
}

/**
 * True when n8n (2.36+) keeps poll cursors in its own table, committed with the execution a poll emits
 * (`N8N_POLLER_DURABLE_CURSORS_ENABLED` with the durable scheduler for poll triggers and the workflow
 * publication service, as n8n 2.41's `isDurablePollerChainEnabled` requires). Then the state a poll writes
 * is kept only when the poll emits, or when a scheduled poll emits nothing; the poll n8n runs at activation
 * is kept only when it emits.
 */
export function durablePollCursors(): boolean {
	return (
		setting('N8N_POLLER_DURABLE_CURSORS_ENABLED', false) &&
		setting('N8N_SCHEDULER_ENABLED', false) &&
		setting('N8N_SCHEDULER_POLL_TRIGGERS_ENABLED', false) &&
		setting('N8N_USE_WORKFLOW_PUBLICATION_SERVICE', true)
	);
}

/**
 * What a poll returns that only recorded where the trigger starts (the first poll after activation, or
 * after what is watched changed). Nothing, except with n8n's durable cursors: there the activation's poll
 * must emit for n8n to keep its state, so it emits no items — n8n saves one execution without items with
 * the state, and every change after activation is reported (otherwise the first scheduled poll would start
 * afresh and skip what changed in between).
 */
export function baselineRecorded(): INodeExecutionData[][] | null {
	return durablePollCursors() ? [[]] : null;
}
