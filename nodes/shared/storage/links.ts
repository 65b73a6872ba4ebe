/** Public link shapes of the spec: folder `{web_url}/u/<hash>`, file `{web_url}/f/<hash>`. */
export function folderLink(webUrl: string, hash: string): string {
	return `${webUrl.replace(/\/+$/, '')}/u/${encodeURIComponent(hash)}`;
}

export function fileLink(webUrl: string, hash: string): string {
	return `${webUrl.replace(/\/+$/, '')}/f/${encodeURIComponent(hash)}`;
}

/** Any web host (localized subdomains included) followed by /u/<hash> or /f/<hash>. */
export const FOLDER_LINK_REGEX = '^https?://[^/?#]+/u/([^/?#]+)/?(?:[?#].*)?$';
export const FILE_LINK_REGEX = '^https?://[^/?#]+/f/([^/?#]+)/?(?:[?#].*)?$';

export function hashFromLink(value: string, kind: 'folder' | 'file'): string | undefined {
	const match = new RegExp(kind === 'folder' ? FOLDER_LINK_REGEX : FILE_LINK_REGEX, 'i').exec(value.trim());
	return match ? decodeURIComponent(match[1]) : undefined;
}
