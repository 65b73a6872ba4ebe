import { NS, type QName } from './namespaces';
import { buildXml, el, type XmlNode } from './xml';

const props = (names: QName[]): XmlNode =>
	el(
		NS.DAV,
		'prop',
		names.map((name) => el(name.ns, name.name)),
	);

export function propfindBody(names: QName[]): string {
	return buildXml(el(NS.DAV, 'propfind', [props(names)]));
}

/** iCalendar UTC basic format, as time-range wants it: 20260301T090000Z. */
export function utcBasic(date: Date): string {
	return date
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
}

export function calendarQueryBody(options: {
	start?: Date;
	end?: Date;
	uid?: string;
	component?: string;
	/** Only components that have this property (RFC 4791 9.7.2: an empty prop-filter tests that it is defined). */
	hasProperty?: string;
}): string {
	const component = options.component ?? 'VEVENT';
	const inner: XmlNode[] = [];
	if (options.start || options.end) {
		const range: Record<string, string> = {};
		if (options.start) range.start = utcBasic(options.start);
		if (options.end) range.end = utcBasic(options.end);
		inner.push(el(NS.CALDAV, 'time-range', [], range));
	}
	// RFC 4791 text-match is a substring match (no match-type): callers keep only the exact UID.
	if (options.uid !== undefined) {
		inner.push(
			el(
				NS.CALDAV,
				'prop-filter',
				[el(NS.CALDAV, 'text-match', options.uid, { collation: 'i;octet' })],
				{ name: 'UID' },
			),
		);
	}
	if (options.hasProperty !== undefined)
		inner.push(el(NS.CALDAV, 'prop-filter', [], { name: options.hasProperty }));
	return buildXml(
		el(NS.CALDAV, 'calendar-query', [
			props([
				{ ns: NS.DAV, name: 'getetag' },
				{ ns: NS.CALDAV, name: 'calendar-data' },
			]),
			el(NS.CALDAV, 'filter', [
				el(NS.CALDAV, 'comp-filter', [el(NS.CALDAV, 'comp-filter', inner, { name: component })], {
					name: 'VCALENDAR',
				}),
			]),
		]),
	);
}

export function addressbookQueryBody(name: string): string {
	return buildXml(
		el(NS.CARDDAV, 'addressbook-query', [
			props([
				{ ns: NS.DAV, name: 'getetag' },
				{ ns: NS.CARDDAV, name: 'address-data' },
			]),
			el(NS.CARDDAV, 'filter', [
				el(
					NS.CARDDAV,
					'prop-filter',
					[
						el(NS.CARDDAV, 'text-match', name, {
							collation: 'i;unicode-casemap',
							'match-type': 'contains',
						}),
					],
					{ name: 'FN' },
				),
			]),
		]),
	);
}

export type DataKind = 'calendar' | 'addressbook';

export const DATA_PROP: Record<DataKind, QName> = {
	calendar: { ns: NS.CALDAV, name: 'calendar-data' },
	addressbook: { ns: NS.CARDDAV, name: 'address-data' },
};

export function multigetBody(kind: DataKind, hrefs: string[]): string {
	const ns = kind === 'calendar' ? NS.CALDAV : NS.CARDDAV;
	return buildXml(
		el(ns, `${kind}-multiget`, [
			props([{ ns: NS.DAV, name: 'getetag' }, DATA_PROP[kind]]),
			...hrefs.map((href) => el(NS.DAV, 'href', href)),
		]),
	);
}

export function syncCollectionBody(token: string | undefined): string {
	return buildXml(
		el(NS.DAV, 'sync-collection', [
			el(NS.DAV, 'sync-token', token ?? ''),
			el(NS.DAV, 'sync-level', '1'),
			props([{ ns: NS.DAV, name: 'getetag' }]),
		]),
	);
}

export interface CollectionProps {
	displayName?: string;
	color?: string;
	description?: string;
	order?: number;
}

function collectionPropNodes(kind: DataKind, values: CollectionProps): XmlNode[] {
	const nodes: XmlNode[] = [];
	if (values.displayName !== undefined) nodes.push(el(NS.DAV, 'displayname', values.displayName));
	if (values.color !== undefined) nodes.push(el(NS.APPLE_ICAL, 'calendar-color', values.color));
	if (values.description !== undefined) {
		nodes.push(
			kind === 'calendar'
				? el(NS.CALDAV, 'calendar-description', values.description)
				: el(NS.CARDDAV, 'addressbook-description', values.description),
		);
	}
	if (values.order !== undefined)
		nodes.push(el(NS.APPLE_ICAL, 'calendar-order', String(values.order)));
	return nodes;
}

export function proppatchBody(kind: DataKind, values: CollectionProps): string {
	return buildXml(
		el(NS.DAV, 'propertyupdate', [
			el(NS.DAV, 'set', [el(NS.DAV, 'prop', collectionPropNodes(kind, values))]),
		]),
	);
}

export function mkcalendarBody(values: CollectionProps, components: string[]): string {
	const set = [
		...collectionPropNodes('calendar', values),
		el(
			NS.CALDAV,
			'supported-calendar-component-set',
			components.map((name) => el(NS.CALDAV, 'comp', [], { name })),
		),
	];
	return buildXml(el(NS.CALDAV, 'mkcalendar', [el(NS.DAV, 'set', [el(NS.DAV, 'prop', set)])]));
}

/** Extended MKCOL (RFC 5689) of an address book with its display name and description. */
export function mkcolBody(values: CollectionProps): string {
	const set = [
		el(NS.DAV, 'resourcetype', [el(NS.DAV, 'collection'), el(NS.CARDDAV, 'addressbook')]),
		...collectionPropNodes('addressbook', values),
	];
	return buildXml(el(NS.DAV, 'mkcol', [el(NS.DAV, 'set', [el(NS.DAV, 'prop', set)])]));
}
