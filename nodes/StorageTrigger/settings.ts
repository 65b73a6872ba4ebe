import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EventName, ListedEntry, TrackingMode } from '../shared/storage/changes';
import { DEFAULT_MAX_DOWNLOAD_MB, DEFAULT_MAX_TRACKED } from './properties';

export interface TriggerSettings {
	events: Set<EventName>;
	/** Deleted/moved events need the whole previous snapshot; created/updated only a cursor. */
	mode: TrackingMode;
	recursive: boolean;
	maxTracked: number;
	download?: { maxBytes: number; property: string };
	matches(entry: Pick<ListedEntry, 'name' | 'type'>): boolean;
}

const EVENTS: EventName[] = [
	'fileCreated',
	'fileUpdated',
	'folderCreated',
	'fileDeleted',
	'fileMoved',
];

/** `*` and `?` wildcards, whole name, case-insensitive. */
export function wildcardRegex(pattern: string): RegExp {
	const body = pattern
		.split('')
		.map((char) =>
			char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&'),
		)
		.join('');
	return new RegExp(`^${body}$`, 'is');
}

export function extensionList(value: string): string[] {
	return value
		.split(',')
		.map((part) => part.trim().replace(/^\.+/, '').toLowerCase())
		.filter(Boolean);
}

export function readSettings(ctx: IPollFunctions): TriggerSettings {
	const selected = (ctx.getNodeParameter('events', []) as string[]).filter(
		(event): event is EventName => EVENTS.includes(event as EventName),
	);
	if (!selected.length) {
		throw new NodeOperationError(ctx.getNode(), 'No event selected', {
			description: 'Choose at least one event under "Trigger On".',
		});
	}
	const events = new Set(selected);
	const filters = ctx.getNodeParameter('filters', {}) as {
		namePattern?: string;
		extensions?: string;
	};
	const pattern = filters.namePattern?.trim()
		? wildcardRegex(filters.namePattern.trim())
		: undefined;
	const extensions = extensionList(filters.extensions ?? '');
	const download = ctx.getNodeParameter('download', false) as boolean;
	return {
		events,
		mode: events.has('fileDeleted') || events.has('fileMoved') ? 'full' : 'window',
		recursive: ctx.getNodeParameter('includeSubfolders', true) as boolean,
		maxTracked: Number(ctx.getNodeParameter('maxTrackedItems', DEFAULT_MAX_TRACKED)),
		download: download
			? {
					maxBytes:
						Number(ctx.getNodeParameter('maxDownloadMb', DEFAULT_MAX_DOWNLOAD_MB)) * 1024 * 1024,
					property: String(ctx.getNodeParameter('binaryPropertyName', 'data')),
				}
			: undefined,
		matches(entry) {
			if (pattern && !pattern.test(entry.name)) return false;
			if (extensions.length && entry.type === 'file') {
				const dot = entry.name.lastIndexOf('.');
				return dot > 0 && extensions.includes(entry.name.slice(dot + 1).toLowerCase());
			}
			return true;
		},
	};
}
