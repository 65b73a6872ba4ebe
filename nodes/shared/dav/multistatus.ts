import { DavError } from './errors';
import { NS } from './namespaces';
import { child, children, parseXml, textOf, type XmlElement } from './xml';

/** One `<response>` of a 207, with each property under the status of its own propstat. */
export interface DavResource {
	/** The href as the server sent it (percent-encoded, possibly absolute). */
	href: string;
	/** The href resolved against the request URL: what later requests use. */
	url: string;
	/** The decoded path, for comparing hrefs that differ only in encoding or trailing slash. */
	key: string;
	/** The response-level status (e.g. 404 for a deletion in sync-collection), when given. */
	status?: number;
	/** Properties by `<namespace> <local name>` with the status of the propstat carrying them. */
	props: Map<string, { status: number; element: XmlElement }>;
}

export interface Multistatus {
	responses: DavResource[];
	/** sync-collection: the new token. */
	syncToken?: string;
}

/** "HTTP/1.1 404 Not Found" → 404; unparsable → 0. */
export function statusCode(line: string | undefined): number {
	const match = /\s(\d{3})(\s|$)/.exec(` ${line ?? ''}`);
	return match ? Number(match[1]) : 0;
}

/** Decoded path without trailing slash: `/a%40b/` and `http://h/a@b` both give `/a@b`. */
export function hrefKey(url: string): string {
	let path: string;
	try {
		path = new URL(url, 'http://placeholder.invalid').pathname;
	} catch {
		path = url;
	}
	let decoded: string;
	try {
		decoded = decodeURIComponent(path);
	} catch {
		decoded = path;
	}
	return decoded.replace(/\/+$/, '') || '/';
}

const propKey = (ns: string, name: string) => `${ns} ${name}`;

export function parseMultistatus(text: string, requestUrl: string, maxChars?: number): Multistatus {
	const root = parseXml(text, maxChars);
	if (root.ns !== NS.DAV || root.name !== 'multistatus') {
		throw new DavError(
			`The server answered with <${root.name}> where a multistatus was expected`,
			'Check that the DAV URL points at a CalDAV/CardDAV server.',
		);
	}
	const responses: DavResource[] = [];
	for (const response of children(root, NS.DAV, 'response')) {
		const props = new Map<string, { status: number; element: XmlElement }>();
		for (const propstat of children(response, NS.DAV, 'propstat')) {
			const status = statusCode(textOf(child(propstat, NS.DAV, 'status')));
			for (const prop of children(propstat, NS.DAV, 'prop')) {
				for (const element of prop.children)
					props.set(propKey(element.ns, element.name), { status, element });
			}
		}
		const statusText = textOf(child(response, NS.DAV, 'status'));
		for (const hrefElement of children(response, NS.DAV, 'href')) {
			const href = textOf(hrefElement) ?? '';
			const url = new URL(href, requestUrl).href;
			responses.push({
				href,
				url,
				key: hrefKey(url),
				status: statusText ? statusCode(statusText) : undefined,
				props,
			});
		}
	}
	return { responses, syncToken: textOf(child(root, NS.DAV, 'sync-token')) };
}

/** A property whose propstat succeeded; a 404/403 propstat means the server lacks it. */
export function prop(resource: DavResource, ns: string, name: string): XmlElement | undefined {
	const entry = resource.props.get(propKey(ns, name));
	return entry && entry.status >= 200 && entry.status < 300 ? entry.element : undefined;
}

export function propText(resource: DavResource, ns: string, name: string): string | undefined {
	const element = prop(resource, ns, name);
	return element ? element.text : undefined;
}

/** The href inside a property such as current-user-principal or calendar-home-set, resolved. */
export function propHref(
	resource: DavResource,
	ns: string,
	name: string,
	base: string,
): string | undefined {
	const href = textOf(child(prop(resource, ns, name), NS.DAV, 'href'));
	return href ? new URL(href, base).href : undefined;
}

/** Failed propstats and responses, for errors that name what the server refused. */
export function failures(
	resources: DavResource[],
): Array<{ href: string; status: number; property?: string }> {
	const found: Array<{ href: string; status: number; property?: string }> = [];
	for (const resource of resources) {
		if (resource.status !== undefined && resource.status >= 400)
			found.push({ href: resource.href, status: resource.status });
		for (const [key, entry] of resource.props) {
			if (entry.status >= 400 && entry.status !== 404)
				found.push({ href: resource.href, status: entry.status, property: key.split(' ')[1] });
		}
	}
	return found;
}
