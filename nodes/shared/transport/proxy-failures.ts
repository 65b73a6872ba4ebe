import { proxyFailure, UNREACHABLE } from './failures';

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
