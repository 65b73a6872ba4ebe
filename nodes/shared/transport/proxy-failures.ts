import { proxyFailure, UNREACHABLE } from './failures';
import { proxySettingFor, proxySpoken } from './proxy';
import { TransportError } from './transport-error';

const SETTINGS = "n8n's proxy settings (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY in its environment)";
const NOTHING_SENT = 'Nothing reached the service.';

/** The proxy as the user may see it: scheme, host and port, never the credentials of its URL. */
function proxyShown(proxy: string): string {
	const url = new URL(proxy);
	return `${url.protocol}//${url.host}`;
}

const UNREACHABLE_PROXY: Record<string, string> = {
	...UNREACHABLE,
	ETIMEDOUT: 'connecting to it timed out',
};

/**
 * A failure before the answer's head that is the proxy's (the pack connects to nothing else), or undefined.
 * undici reports a refused CONNECT by its status, and a 407 to a forwarded request as an invalid argument.
 */
export function proxyFailureOf(
	code: string,
	message: string,
	proxy: string,
	target: URL,
): Error | undefined {
	if (Object.hasOwn(UNREACHABLE_PROXY, code))
		return proxyFailure(
			code,
			`Could not reach the proxy ${proxyShown(proxy)}: ${UNREACHABLE_PROXY[code]}`,
			`${SETTINGS} send the requests for ${target.host} through this proxy: check its address there and that the proxy is running, or list ${target.hostname} in NO_PROXY if the service is to be reached directly. ${NOTHING_SENT}`,
			true,
		);
	const refused =
		code === 'UND_ERR_ABORTED'
			? /^Proxy response \((\d{3})\) !== 200/.exec(message)
			: code === 'UND_ERR_INVALID_ARG'
				? /^Proxy Authentication Required \((407)\)$/.exec(message)
				: null;
	return refused ? proxyRefusal(proxy, target, Number(refused[1])) : undefined;
}

/** The proxy answered `status` instead of passing the request on: what it means and what to check. */
export function proxyRefusal(proxy: string, target: URL, status: number): Error {
	const shown = proxyShown(proxy);
	const url = new URL(proxy);
	if (status === 407)
		return proxyFailure(
			'PROXY_407',
			url.username
				? `The proxy ${shown} refused the user name and password in its URL (407 Proxy Authentication Required)`
				: `The proxy ${shown} requires a user name and password (407 Proxy Authentication Required)`,
			`Check ${SETTINGS}: the proxy's credentials go into its URL as http://user:password@host:port, with special characters percent-encoded. ${NOTHING_SENT}`,
			false,
		);
	if (status >= 500)
		return proxyFailure(
			`PROXY_${status}`,
			`The proxy ${shown} could not reach ${target.host} (${status})`,
			`Check that the service is running and that the proxy may and can reach it (its rules, name resolution, firewall), and ${SETTINGS}. ${NOTHING_SENT}`,
			true,
		);
	return proxyFailure(
		`PROXY_${status}`,
		`The proxy ${shown} refused to connect to ${target.host} (${status})`,
		`The proxy's rules do not let requests through to this address: have the proxy allow ${target.host}, or list ${target.hostname} in NO_PROXY if it is to be reached directly. Check ${SETTINGS}. ${NOTHING_SENT}`,
		false,
	);
}

/**
 * The proxy did not open the way to the service (CONNECT unanswered, or the connection to it not accepted) within
 * the node's Timeout: the request waits for that way, so nothing reached the service. Not asked again, read or
 * write: the proxy had the whole Timeout, and each further attempt would only wait as long again.
 */
export function proxySilence(proxy: string, target: URL): Error {
	return proxyFailure(
		'PROXY_TIMEOUT',
		`The proxy ${proxyShown(proxy)} did not open the connection to ${target.host} within the node's Timeout`,
		`Check that the proxy is running and can reach the service, raise the Timeout under Request Options if it is only slow, and check ${SETTINGS}. ${NOTHING_SENT}`,
		false,
	);
}

/**
 * A proxy set for `url` that no path of the pack can go through, refused before any request: n8n's own proxy agents
 * speak HTTP to whatever proxy is set, so a socks proxy (socks://, socks5://, …) fails n8n's requests too, and
 * the pack's own paths do not go around a configured proxy. A URL that does not parse is not repeated (it may
 * hold a password).
 */
export function unsupportedProxy(url: string, itemIndex?: number): TransportError | undefined {
	const setting = proxySettingFor(url);
	if (!setting || proxySpoken(setting.proxy)) return undefined;
	const { proxy, variable } = setting;
	let shown: string | undefined;
	try {
		shown = proxyShown(proxy);
	} catch {
		shown = undefined;
	}
	return new TransportError(
		'CS_PROXY_UNSUPPORTED',
		shown
			? `The proxy in ${variable} (${shown}) is not an http:// or https:// proxy, which is all n8n's requests go through`
			: `The proxy URL in ${variable} is not a valid URL`,
		{
			kind: 'input',
			itemIndex,
			description: `Set ${variable} in n8n's environment to an http://host:port or https://host:port proxy (user name and password as http://user:password@host:port), or list ${new URL(url).hostname} in NO_PROXY to reach the service directly, then restart n8n. Nothing was sent.`,
		},
	);
}
