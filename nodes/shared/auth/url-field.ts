import { insecureUrlProblem } from '../urls';

/**
 * The URLs users paste into a credential's URL field by mistake, told apart before any request: a space around
 * the address, a user name and password in it, plain http to another host. (A web page, a share link or another
 * interface's address can only be told from the answer: `addressHint`.)
 */
export function urlFieldProblem(field: string, value: string): string | undefined {
	if (!value.trim()) return `${field} is empty. Enter the full address, starting with https://.`;
	if (value.trim() !== value) return `${field} has a space before or after the address. Remove it.`;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return `${field} is not a URL. Enter the full address, starting with https://.`;
	}
	if (url.username || url.password)
		// Neither is repeated: the message may be shown or logged.
		return `${field} carries a user name or password before the host (user:password@). Remove them: the credential's own fields sign in.`;
	const insecure = insecureUrlProblem(url.href);
	return insecure ? `${field}: ${insecure}.` : undefined;
}

/** The same check for a request the credential authenticates, which carries the field joined with a path. */
export function requestUrlProblem(url: string): string | undefined {
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (parsed && (parsed.username || parsed.password))
		return "The URL in the credential carries a user name or password before the host (user:password@). Remove them: the credential's own fields sign in.";
	return insecureUrlProblem(url);
}

/** Paths of the service's public pages (`storage/links.ts`): a share link pasted as an API address. */
const SHARE_LINK = /^\/(u|f|pa)\//;
/** An API path a user may add although the node adds each interface's path itself. */
const API_PATH = /^\/api(_v\d+|_dvs|\/v\d+|\/mcp)?\/?$/i;

/**
 * What to set instead, when a URL field that got a wrong answer has a path: the service's Base URL is an
 * address the node adds each interface's path to (`{base_url}/api_v2/…`, `/api/mcp`, `/api_dvs/…`).
 */
export function addressHint(
	field: string,
	value: string,
	apiAtRoot: boolean,
	what = "the API's address",
): string | undefined {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return undefined;
	}
	const path = url.pathname.replace(/\/+$/, '');
	if (SHARE_LINK.test(url.pathname))
		return `${field} is a share link (a file's or folder's page of the web interface): set it to ${what}.`;
	if (!apiAtRoot || !path) return undefined;
	if (API_PATH.test(path))
		return `The node adds each interface's path (${path} among them) itself: set ${field} to ${url.origin}.`;
	return `If the API answers at the server's root, set ${field} to ${url.origin} (without ${path}).`;
}
