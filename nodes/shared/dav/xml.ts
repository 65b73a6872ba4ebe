import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

import { DavError } from './errors';
import { PREFIX } from './namespaces';

/** A parsed element with its namespace resolved, so matching never depends on the server's prefixes. */
export interface XmlElement {
	ns: string;
	name: string;
	attrs: Record<string, string>;
	children: XmlElement[];
	/** Character data directly inside the element (CDATA included), entities decoded. */
	text: string;
}

export const DEFAULT_MAX_XML_CHARS = 32 * 1024 * 1024;

// Entity expansion stays off in the parser (no DOCTYPE entities, no billion-laughs); only the five
// predefined XML entities and character references, which carry no expansion risk, are decoded here.
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeReferences(text: string): string {
	return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
		if (ref[0] !== '#') return PREDEFINED[ref];
		const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
		return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
	});
}

const parser = new XMLParser({
	preserveOrder: true,
	ignoreAttributes: false,
	attributeNamePrefix: '',
	processEntities: false,
	htmlEntities: false,
	parseTagValue: false,
	parseAttributeValue: false,
	trimValues: false,
	ignoreDeclaration: true,
	ignorePiTags: true,
	cdataPropName: '#cdata',
	commentPropName: false,
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function toElement(node: OrderedNode, scope: Record<string, string>): XmlElement | undefined {
	const tag = Object.keys(node).find((key) => key !== ':@');
	if (!tag || tag === '#text' || tag === '#cdata') return undefined;
	const rawAttrs = node[':@'] ?? {};
	const inner: Record<string, string> = { ...scope };
	const attrs: Record<string, string> = {};
	for (const [key, value] of Object.entries(rawAttrs)) {
		if (key === 'xmlns') inner[''] = value;
		else if (key.startsWith('xmlns:')) inner[key.slice(6)] = value;
		else
			attrs[key.includes(':') ? key.slice(key.indexOf(':') + 1) : key] = decodeReferences(
				String(value),
			);
	}
	const colon = tag.indexOf(':');
	const prefix = colon === -1 ? '' : tag.slice(0, colon);
	const element: XmlElement = {
		ns: inner[prefix] ?? '',
		name: colon === -1 ? tag : tag.slice(colon + 1),
		attrs,
		children: [],
		text: '',
	};
	for (const child of (node[tag] as OrderedNode[]) ?? []) {
		if ('#text' in child) element.text += decodeReferences(String(child['#text']));
		else if ('#cdata' in child)
			element.text += ((child['#cdata'] as OrderedNode[]) ?? [])
				.map((part) => String(part['#text'] ?? ''))
				.join('');
		else {
			const sub = toElement(child, inner);
			if (sub) element.children.push(sub);
		}
	}
	return element;
}

/** Parses a DAV XML body into a namespace-resolved tree; refuses DOCTYPEs (entity bombs) and oversized bodies. */
export function parseXml(text: string, maxChars = DEFAULT_MAX_XML_CHARS): XmlElement {
	if (text.length > maxChars) {
		throw new DavError(
			'The server sent an XML answer that is too large',
			`The limit is ${Math.round(maxChars / 1048576)} MiB. Narrow the request (a shorter time range, a smaller collection).`,
		);
	}
	if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
		throw new DavError(
			'The server sent XML with a document type declaration, which is refused',
			'DAV answers never need one; entity declarations could expand without bound. Check that the DAV URL points at a CalDAV/CardDAV server.',
		);
	}
	let nodes: OrderedNode[] | undefined;
	let problem = '';
	// The parser accepts unclosed elements, so a cut-off multistatus would otherwise read as fewer results.
	const valid = XMLValidator.validate(text);
	if (valid !== true) {
		throw new DavError(
			'The server sent XML that could not be parsed',
			`${valid.err.msg} (line ${valid.err.line}). The answer may have been cut off; check that the DAV URL points at a CalDAV/CardDAV server.`,
		);
	}
	try {
		nodes = parser.parse(text) as OrderedNode[];
	} catch (error) {
		problem = (error as Error).message;
	}
	if (!nodes)
		throw new DavError(
			'The server sent XML that could not be parsed',
			`Check that the DAV URL points at a CalDAV/CardDAV server. (${problem})`,
		);
	const root = nodes.map((node) => toElement(node, {})).find((element) => element !== undefined);
	if (!root)
		throw new DavError(
			'The server sent an empty XML answer',
			'Check that the DAV URL points at a CalDAV/CardDAV server.',
		);
	return root;
}

export function children(element: XmlElement | undefined, ns: string, name: string): XmlElement[] {
	return element ? element.children.filter((child) => child.ns === ns && child.name === name) : [];
}

export function child(
	element: XmlElement | undefined,
	ns: string,
	name: string,
): XmlElement | undefined {
	return element?.children.find((candidate) => candidate.ns === ns && candidate.name === name);
}

export function textOf(element: XmlElement | undefined): string | undefined {
	if (!element) return undefined;
	return element.text.trim();
}

/** An element to build: `{ ns, name, attrs?, children?, text? }`, serialised with the pack's prefixes. */
export interface XmlNode {
	ns: string;
	name: string;
	attrs?: Record<string, string>;
	children?: XmlNode[];
	text?: string;
}

export const el = (
	ns: string,
	name: string,
	content?: XmlNode[] | string,
	attrs?: Record<string, string>,
): XmlNode => ({
	ns,
	name,
	attrs,
	...(typeof content === 'string' ? { text: content } : { children: content }),
});

const builder = new XMLBuilder({
	preserveOrder: true,
	ignoreAttributes: false,
	attributeNamePrefix: '@_',
	suppressEmptyNode: true,
	processEntities: true,
});

function usedNamespaces(node: XmlNode, into: Set<string>): Set<string> {
	into.add(node.ns);
	for (const sub of node.children ?? []) usedNamespaces(sub, into);
	return into;
}

function prefixOf(ns: string): string {
	const prefix = PREFIX[ns];
	if (!prefix) throw new Error(`No prefix registered for namespace ${ns}`);
	return prefix;
}

function toOrdered(node: XmlNode, rootAttrs?: Record<string, string>): Record<string, unknown> {
	const tag = `${prefixOf(node.ns)}:${node.name}`;
	const content: unknown[] =
		node.text !== undefined
			? [{ '#text': node.text }]
			: (node.children ?? []).map((sub) => toOrdered(sub));
	const attrs = { ...rootAttrs, ...node.attrs };
	const result: Record<string, unknown> = { [tag]: content };
	if (Object.keys(attrs).length > 0) {
		result[':@'] = Object.fromEntries(
			Object.entries(attrs).map(([key, value]) => [`@_${key}`, value]),
		);
	}
	return result;
}

/** A complete request body, declaring the namespaces its elements use. */
export function buildXml(root: XmlNode): string {
	const declarations = Object.fromEntries(
		[...usedNamespaces(root, new Set())].map((ns) => [`xmlns:${prefixOf(ns)}`, ns]),
	);
	return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build([toOrdered(root, declarations)]) as string}`;
}
