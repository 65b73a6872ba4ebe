/** Public link shapes of the spec: folder `{web_url}/u/<hash>`, file `{web_url}/f/<hash>`, path `{web_url}/pa/<user>/<path>`. */
export function folderLink(webUrl: string, hash: string): string {
	return `${webUrl.replace(/\/+$/, '')}/u/${encodeURIComponent(hash)}`;
}

export function fileLink(webUrl: string, hash: string): string {
	return `${webUrl.replace(/\/+$/, '')}/f/${encodeURIComponent(hash)}`;
}

/** Any web host (localized subdomains included) followed by /u/<hash>, /f/<hash> or /pa/<user>/<path>. */
export const FOLDER_LINK_REGEX = '^https?://[^/?#]+/(?:u/[^/?#]+|pa/[^?#]+)/?(?:[?#].*)?$';
export const FILE_LINK_REGEX = '^https?://[^/?#]+/(?:f/[^/?#]+|pa/[^?#]+)/?(?:[?#].*)?$';

export type ParsedLink = { hash: string } | { user: string; path: string[] };

export function parseLink(value: string, kind: 'folder' | 'file'): ParsedLink | undefined {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return undefined;
	}
	if (!/^https?:$/.test(url.protocol)) return undefined;
	const segments = url.pathname
		.split('/')
		.filter(Boolean)
		.map((segment) => decodeURIComponent(segment));
	const [marker, ...rest] = segments;
	if (marker === (kind === 'folder' ? 'u' : 'f') && rest.length === 1) return { hash: rest[0] };
	if (marker === 'pa' && rest.length >= (kind === 'folder' ? 1 : 2))
		return { user: rest[0], path: rest.slice(1) };
	return undefined;
}
