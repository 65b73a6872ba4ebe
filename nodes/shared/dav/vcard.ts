import ICAL from 'ical.js';

import { isEmailAddress } from '../esignature/input';
import { DavDataError } from './errors';

type Component = InstanceType<typeof ICAL.Component>;

export const VCARD_PRODID = '-//n8n-nodes-cloud-storage//CardDAV//EN';

export interface TypedValue {
	value: string;
	/** vCard TYPE, e.g. work, home, cell. */
	type?: string;
}

export interface PostalAddress {
	type?: string;
	street?: string;
	city?: string;
	region?: string;
	postalCode?: string;
	country?: string;
}

/** Fields an operation sets; undefined leaves the property as it is, a list replaces the existing ones. */
export interface ContactFields {
	fullName?: string;
	givenName?: string;
	familyName?: string;
	emails?: TypedValue[];
	phones?: TypedValue[];
	organization?: string;
	title?: string;
	addresses?: PostalAddress[];
	note?: string;
	/** YYYY-MM-DD, or --MM-DD for a birthday without year. */
	birthday?: string;
}

function isVcard4(card: Component): boolean {
	return String(card.getFirstPropertyValue('version') ?? '').trim() === '4.0';
}

/** Apple's placeholder year for a birthday without year (`BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15`). */
const APPLE_NO_YEAR = '1604';

export function parseVcard(text: string): Component {
	let component: Component | undefined;
	let problem = '';
	try {
		const parsed = ICAL.parse(text) as unknown;
		// A .vcf may hold several cards; a CardDAV object holds one.
		const first = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed[0] : parsed;
		component = new ICAL.Component(first as never);
	} catch (error) {
		// ical.js fails with a TypeError on text that is not line-based at all; its wording means nothing to users.
		problem =
			error instanceof TypeError
				? 'It is not vCard text (BEGIN:VCARD … END:VCARD)'
				: (error as Error).message;
	}
	if (!component)
		throw new DavDataError(
			'The vCard data could not be parsed',
			`${problem}. Check the raw vCard text.`,
		);
	if (component.name !== 'vcard')
		throw new DavDataError(
			`Expected a VCARD, found ${component.name.toUpperCase()}`,
			'Pass a complete vCard (BEGIN:VCARD … END:VCARD).',
		);
	return component;
}

function setText(card: Component, name: string, value: string | undefined): void {
	if (value === undefined) return;
	if (value === '') card.removeAllProperties(name);
	else card.updatePropertyWithValue(name, value);
}

function setTyped(card: Component, name: string, values: TypedValue[]): void {
	card.removeAllProperties(name);
	for (const entry of values) {
		if (!entry.value) continue;
		const property = card.addPropertyWithValue(name, entry.value);
		if (entry.type) property.setParameter('type', entry.type);
	}
}

function structuredName(card: Component, fields: ContactFields): void {
	if (fields.givenName === undefined && fields.familyName === undefined) return;
	const current = card.getFirstProperty('n')?.getValues()?.[0];
	const parts: string[] = Array.isArray(current)
		? current.map((part) => String(part ?? ''))
		: ['', '', '', '', ''];
	while (parts.length < 5) parts.push('');
	if (fields.familyName !== undefined) parts[0] = fields.familyName;
	if (fields.givenName !== undefined) parts[1] = fields.givenName;
	card.removeAllProperties('n');
	card.addProperty(new ICAL.Property(['n', {}, 'text', parts] as never, card));
}

function setAddresses(card: Component, addresses: PostalAddress[]): void {
	card.removeAllProperties('adr');
	for (const address of addresses) {
		const parts = [
			'',
			'',
			address.street ?? '',
			address.city ?? '',
			address.region ?? '',
			address.postalCode ?? '',
			address.country ?? '',
		];
		if (parts.every((part) => part === '')) continue;
		const property = new ICAL.Property(
			['adr', address.type ? { type: address.type } : {}, 'text', parts] as never,
			card,
		);
		card.addProperty(property);
	}
}

function applyFields(card: Component, fields: ContactFields): void {
	setText(card, 'fn', fields.fullName);
	structuredName(card, fields);
	if (fields.emails !== undefined) {
		const invalid = fields.emails.find(
			(entry) => entry.value && !isEmailAddress(entry.value.trim()),
		);
		if (invalid)
			throw new DavDataError(
				`Emails: "${invalid.value.slice(0, 100)}" is not an e-mail address`,
				'Use plain addresses like ana@example.com.',
			);
		setTyped(card, 'email', fields.emails);
	}
	if (fields.phones !== undefined) setTyped(card, 'tel', fields.phones);
	if (fields.organization !== undefined) {
		card.removeAllProperties('org');
		if (fields.organization !== '')
			card.addProperty(new ICAL.Property(['org', {}, 'text', fields.organization] as never, card));
	}
	setText(card, 'title', fields.title);
	if (fields.addresses !== undefined) setAddresses(card, fields.addresses);
	setText(card, 'note', fields.note);
	if (fields.birthday !== undefined) {
		card.removeAllProperties('bday');
		if (fields.birthday !== '') {
			const noYear = /^--(\d{2}-\d{2})$/.exec(fields.birthday);
			if (!noYear && !/^\d{4}-\d{2}-\d{2}$/.test(fields.birthday))
				throw new DavDataError(
					`"${fields.birthday}" is not a valid birthday`,
					'Use YYYY-MM-DD, or --MM-DD for a birthday without year.',
				);
			// vCard 4.0 writes BDAY as date-and-or-time (RFC 6350 6.2.5; VALUE=DATE is a 3.0 form) and has
			// --MMDD for no year; vCard 3.0 has no such form, so Apple's placeholder year is written.
			const property = isVcard4(card)
				? ['bday', {}, 'date-and-or-time', fields.birthday]
				: noYear
					? [
							'bday',
							{ 'x-apple-omit-year': APPLE_NO_YEAR },
							'date',
							`${APPLE_NO_YEAR}-${noYear[1]}`,
						]
					: ['bday', {}, 'date', fields.birthday];
			card.addProperty(new ICAL.Property(property as never, card));
		}
	}
	// FN is mandatory in vCard; derive it from the name parts when only those were given.
	if (!card.getFirstPropertyValue('fn')) {
		const fullName =
			[fields.givenName, fields.familyName].filter(Boolean).join(' ') || fields.organization;
		if (!fullName)
			throw new DavDataError(
				'A contact needs a name',
				'Set Full Name, or Given/Family Name, or Organization.',
			);
		card.updatePropertyWithValue('fn', fullName);
	}
}

function touch(card: Component, now: Date): void {
	card.removeAllProperties('rev');
	// A UTC date-time: REV's only type in vCard 4.0 is timestamp (RFC 6350 6.7.4: no VALUE=DATE-TIME).
	card.addProperty(
		new ICAL.Property(
			[
				'rev',
				{},
				isVcard4(card) ? 'timestamp' : 'date-time',
				now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
			] as never,
			card,
		),
	);
}

export function serializeVcard(card: Component): string {
	return card
		.toString()
		.replace(/\r?\n/g, '\r\n')
		.replace(/(\r\n)?$/, '\r\n');
}

/** A new vCard 3.0 (the version every CardDAV server must accept, RFC 6352). */
export function createContactData(fields: ContactFields, uid: string, now = new Date()): string {
	const card = new ICAL.Component('vcard');
	card.addPropertyWithValue('version', '3.0');
	card.addPropertyWithValue('prodid', VCARD_PRODID);
	card.addPropertyWithValue('uid', uid);
	applyFields(card, fields);
	touch(card, now);
	return serializeVcard(card);
}

/** The vCard properties a patch replaces, upper case. */
function touchedProperties(fields: ContactFields, hadFullName: boolean): Set<string> {
	const touched = new Set(['REV']);
	const map: Array<[keyof ContactFields, string]> = [
		['fullName', 'FN'],
		['givenName', 'N'],
		['familyName', 'N'],
		['emails', 'EMAIL'],
		['phones', 'TEL'],
		['organization', 'ORG'],
		['title', 'TITLE'],
		['addresses', 'ADR'],
		['note', 'NOTE'],
		['birthday', 'BDAY'],
	];
	for (const [field, name] of map) if (fields[field] !== undefined) touched.add(name);
	if (!hadFullName) touched.add('FN');
	return touched;
}

/** Logical lines (unfolded) of a vCard, each with its original folded text and its group (`item2`), if any. */
function logicalLines(text: string): Array<{ raw: string; name: string; group?: string }> {
	const lines: Array<{ raw: string; name: string; group?: string }> = [];
	for (const physical of text.split(/\r\n|\n|\r/)) {
		if (/^[ \t]/.test(physical) && lines.length > 0) {
			lines[lines.length - 1].raw += `\r\n${physical}`;
			continue;
		}
		if (physical === '') continue;
		// NAME, or group.NAME, up to the first ';' or ':'.
		const match = /^(?:([A-Za-z0-9-]+)\.)?([A-Za-z0-9-]+)[;:]/.exec(physical);
		lines.push({
			raw: physical,
			name: match ? match[2].toUpperCase() : '',
			group: match?.[1]?.toUpperCase(),
		});
	}
	return lines;
}

/**
 * Patches a stored vCard. Only the properties the patch names (and REV) are rewritten; every other line
 * — photos, X- properties, group names such as `item1.`, parameters, date forms such as `BDAY:1980-02-03`
 * — stays exactly as the other client wrote it. The replaced properties take the place of their first old
 * line; new ones go before END:VCARD.
 */
export function patchContactData(text: string, fields: ContactFields, now = new Date()): string {
	const card = parseVcard(text);
	const touched = touchedProperties(fields, Boolean(card.getFirstPropertyValue('fn')));
	applyFields(card, fields);
	touch(card, now);
	const fresh = logicalLines(serializeVcard(card)).filter((line) => touched.has(line.name));
	const original = logicalLines(text);
	// Apple and others label a property through its group (item2.EMAIL + item2.X-ABLABEL): when the property
	// is replaced, the X- lines of its group describe nothing any more and go with it.
	const orphanedGroups = new Set(
		original
			.filter((line) => line.group && touched.has(line.name))
			.map((line) => line.group as string),
	);
	const out: string[] = [];
	const placed = new Set<string>();
	const place = (name: string) => {
		if (placed.has(name)) return;
		placed.add(name);
		for (const line of fresh) if (line.name === name) out.push(line.raw);
	};
	let inCard = 0;
	for (const line of original) {
		const upper = line.raw.toUpperCase();
		if (upper.startsWith('BEGIN:VCARD')) inCard++;
		if (upper.startsWith('END:VCARD') && inCard === 1) for (const name of touched) place(name);
		if (upper.startsWith('END:VCARD')) inCard--;
		if (
			inCard === 1 &&
			touched.has(line.name) &&
			!upper.startsWith('BEGIN:') &&
			!upper.startsWith('END:')
		) {
			place(line.name);
			continue;
		}
		if (
			inCard === 1 &&
			line.group &&
			orphanedGroups.has(line.group) &&
			line.name.startsWith('X-') &&
			!original.some(
				(other) =>
					other.group === line.group && !other.name.startsWith('X-') && !touched.has(other.name),
			)
		)
			continue;
		out.push(line.raw);
	}
	return `${out.join('\r\n')}\r\n`;
}

export function normaliseRawVcard(text: string, uid: string): { data: string; uid: string } {
	const card = parseVcard(text);
	const existing = card.getFirstPropertyValue('uid');
	if (!existing) card.updatePropertyWithValue('uid', uid);
	if (!card.getFirstPropertyValue('fn'))
		throw new DavDataError('The vCard has no FN (full name)', 'vCard requires FN; add one.');
	return { data: serializeVcard(card), uid: existing ? String(existing) : uid };
}

export interface ContactView {
	uid?: string;
	fullName?: string;
	givenName?: string;
	familyName?: string;
	emails: TypedValue[];
	phones: TypedValue[];
	organization?: string;
	title?: string;
	addresses: PostalAddress[];
	note?: string;
	birthday?: string;
	[key: string]: unknown;
}

function typeOf(property: InstanceType<typeof ICAL.Property>): string | undefined {
	const type = property.getParameter('type');
	if (Array.isArray(type)) return type.join(',');
	return typeof type === 'string' ? type : undefined;
}

export function describeVcard(text: string): ContactView {
	const card = parseVcard(text);
	const text1 = (name: string) => {
		const value = card.getFirstPropertyValue(name);
		if (value === null || value === undefined) return undefined;
		return Array.isArray(value) ? value.filter(Boolean).join(', ') : String(value);
	};
	const name = card.getFirstProperty('n')?.getValues()?.[0];
	const nameParts: unknown[] = Array.isArray(name) ? name : [];
	const part = (index: number) => {
		const value = nameParts[index];
		const flat = Array.isArray(value) ? value.join(' ') : value;
		return flat ? String(flat) : undefined;
	};
	const bdayProperty = card.getFirstProperty('bday');
	const bday = card.getFirstPropertyValue('bday');
	const omittedYear = bdayProperty?.getParameter('x-apple-omit-year');
	return {
		uid: text1('uid'),
		fullName: text1('fn'),
		givenName: part(1),
		familyName: part(0),
		emails: card
			.getAllProperties('email')
			.map((property) => ({ value: String(property.getFirstValue()), type: typeOf(property) })),
		phones: card
			.getAllProperties('tel')
			.map((property) => ({ value: String(property.getFirstValue()), type: typeOf(property) })),
		organization: text1('org'),
		title: text1('title'),
		addresses: card.getAllProperties('adr').map((property) => {
			const raw = property.getFirstValue() as unknown;
			const values: string[] = Array.isArray(raw)
				? raw.map((entry) => (Array.isArray(entry) ? entry.join(' ') : String(entry ?? '')))
				: [String(raw ?? '')];
			return {
				type: typeOf(property),
				street: values[2] || undefined,
				city: values[3] || undefined,
				region: values[4] || undefined,
				postalCode: values[5] || undefined,
				country: values[6] || undefined,
			};
		}),
		note: text1('note'),
		birthday: bday
			? typeof omittedYear === 'string' && String(bday).startsWith(omittedYear)
				? `--${String(bday).slice(5, 10)}`
				: String(bday).slice(0, 10)
			: undefined,
	};
}
