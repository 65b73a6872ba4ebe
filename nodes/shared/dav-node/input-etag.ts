import type { IExecuteFunctions } from 'n8n-workflow';

const pathOf = (url: string, base: string): string | undefined => {
	try {
		return decodeURIComponent(new URL(url, base).pathname).replace(/\/+$/, '');
	} catch {
		return undefined;
	}
};

/**
 * The ETag the input item carries for the object at `url`: Get, Get Many, Search, Create, Update and the
 * triggers output `url` and `etag` side by side. It is the version this workflow saw, so a write that must
 * not undo another client's later edit expects it. Only when the item's `url` names the same object.
 */
export function inputEtag(
	ctx: IExecuteFunctions,
	itemIndex: number,
	url: string,
): string | undefined {
	const json = ctx.getInputData()[itemIndex]?.json;
	if (!json || typeof json.etag !== 'string' || !json.etag.trim()) return undefined;
	if (typeof json.url !== 'string' || !json.url) return undefined;
	const mine = pathOf(url, url);
	return mine !== undefined && pathOf(json.url, url) === mine ? json.etag.trim() : undefined;
}
