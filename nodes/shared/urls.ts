// Addresses, for the transport and for the credentials it applies: a leaf outside both, so that the credentials'
// checks need not import the transport (which imports the credentials).

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
	return (
		LOOPBACK_HOSTS.has(hostname) ||
		/^127\.\d+\.\d+\.\d+$/.test(hostname) ||
		hostname.endsWith('.localhost')
	);
}

/**
 * Credentials travel in headers and bodies, so a plain-http URL would expose them on the network.
 * Loopback stays allowed for the local sandbox and for services reached through a local tunnel.
 */
export function insecureUrlProblem(url: string): string | undefined {
	// Every request asks, mostly about the same few URLs (one per action), so the answer is remembered; not for
	// a URL with a query string or user info, which may hold a secret that should not stay in memory.
	if (checked.has(url)) return checked.get(url);
	const problem = urlProblem(url);
	if (/[?@]/.test(url)) return problem;
	if (checked.size >= CHECKED_URLS) checked.clear();
	checked.set(url, problem);
	return problem;
}

const CHECKED_URLS = 256;
const checked = new Map<string, string | undefined>();

function urlProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		// The text itself is not repeated: a user may have pasted a secret into it.
		if (URL.canParse(url.replace(/\s+(?=\/|$)/g, '').trim()))
			return 'The URL has a space in it: remove any space before or after the address in the credential (Base URL, DAV URL) or the node';
		return 'The URL is not a valid URL. Enter a full URL such as https://api.example.com';
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
	if (parsed.protocol === 'http:') {
		return `Refusing plain http for ${parsed.host}: credentials would travel unencrypted. Use an https:// URL (http is only allowed for localhost)`;
	}
	return `Unsupported URL scheme "${parsed.protocol}" in ${parsed.host}. Use an https:// URL`;
}

export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A URL as it may appear in a message: never with a query string or user info. */
export function displayUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return '(invalid URL)';
	}
}

/**
 * Text (an error message from below n8n's HTTP helper) with the query string cut off every URL in it:
 * documented capability keys travel in query strings and must never reach a message or a log.
 */
export function withoutQueryStrings(text: string): string {
	return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*)\?[^\s#"'<>]*/gi, '$1');
}
