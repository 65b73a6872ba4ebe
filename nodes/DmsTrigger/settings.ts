import type { IPollFunctions } from 'n8n-workflow';

import { PackError } from '../shared/errors/pack-error';
import { trackedFields, type DmsEvent, type DmsTrackingMode } from '../shared/dms/changes';
import type { Section } from '../shared/dms/types';
import { DEFAULT_MAX_TRACKED } from './properties';

export interface DmsTriggerSettings {
	resource: 'task' | 'contactPerson';
	section: Section;
	events: Set<DmsEvent>;
	mode: DmsTrackingMode;
	fields: 'all' | string[];
	/** get_documents filters: documented filterable fields only. */
	filters: Record<string, number[]>;
	/** statusChanged: option ids the task must have moved into; empty means any. */
	toStatuses: number[];
	maxTracked: number;
}

const TASK_EVENTS: DmsEvent[] = ['created', 'updated', 'statusChanged', 'responsibleChanged'];
const CONTACT_EVENTS: DmsEvent[] = ['created', 'updated'];

function ids(value: unknown, what: string): number[] {
	const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter(Boolean);
	const bad = list.find((entry) => !/^\d+$/.test(entry));
	if (bad !== undefined) {
		throw new PackError(`${what} must be numeric IDs, got "${bad}"`, {
			kind: 'input',
			description: `Pick the ${what.toLowerCase()} from the list or give its numeric ID.`,
		});
	}
	return list.map(Number);
}

function locatorId(ctx: IPollFunctions, name: string, what: string): number[] {
	const value = ctx.getNodeParameter(name, '', { extractValue: true }) as unknown;
	return ids(value, what);
}

export function readSettings(ctx: IPollFunctions): DmsTriggerSettings {
	const resource = ctx.getNodeParameter('resource', 'task') as DmsTriggerSettings['resource'];
	const task = resource === 'task';
	const allowed = task ? TASK_EVENTS : CONTACT_EVENTS;
	const selected = (
		ctx.getNodeParameter(task ? 'taskEvents' : 'contactEvents', []) as string[]
	).filter((event): event is DmsEvent => allowed.includes(event as DmsEvent));
	if (!selected.length) {
		throw new PackError('No event selected', {
			kind: 'input',
			description: 'Choose at least one event under "Trigger On".',
		});
	}
	const events = new Set(selected);
	const filters: Record<string, number[]> = {};
	if (task) {
		const project = locatorId(ctx, 'taskFilters.project', 'Project');
		if (project.length) filters.dvs_project_id = project;
		const statuses = ids(ctx.getNodeParameter('taskFilters.statuses', []), 'Status');
		if (statuses.length) filters.dropdown_status = statuses;
	} else {
		const company = locatorId(ctx, 'contactFilters.company', 'Company');
		if (company.length) filters.company = company;
		const groups = ids(ctx.getNodeParameter('contactFilters.groups', []), 'Group');
		if (groups.length) filters.multi_dropdown_group = groups;
	}
	const mode: DmsTrackingMode = [...events].some((event) => event !== 'created')
		? 'full'
		: 'window';
	return {
		resource,
		section: task ? 'task' : 'contact_person',
		events,
		mode,
		fields: trackedFields(events),
		filters,
		toStatuses:
			task && events.has('statusChanged')
				? ids(ctx.getNodeParameter('toStatuses', []), 'To Status')
				: [],
		maxTracked:
			mode === 'full'
				? Number(ctx.getNodeParameter('maxTracked', DEFAULT_MAX_TRACKED))
				: Number.POSITIVE_INFINITY,
	};
}
