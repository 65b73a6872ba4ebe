type Env = Record<string, string | undefined>;

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** A proxy setting: the variable that holds it (as set, in its case) and its value. */
interface Setting {
	variable: string;
	value: string;
}

/** Either case, the lower one first, as n8n's proxy resolution (proxy-from-env 1.1) reads them. */
function read(env: Env, name: string): Setting | undefined {
	for (const variable of [name.toLowerCase(), name.toUpperCase()]) {
		const value = env[variable];
		if (value) return { variable, value };
	}
	return undefined;
}

function bypassed(env: Env, hostname: string, port: number): boolean {
	const noProxy = (
		read(env, 'npm_config_no_proxy')?.value ||
		read(env, 'no_proxy')?.value ||
		''
	).toLowerCase();
	if (!noProxy) return false;
	if (noProxy === '*') return true;
	return noProxy.split(/[,\s]/).some((entry) => {
		if (!entry) return false;
		const withPort = /^(.+):(\d+)$/.exec(entry);
		let host = withPort ? withPort[1] : entry;
		const entryPort = withPort ? Number(withPort[2]) : 0;
		if (entryPort && entryPort !== port) return false;
		if (!/^[.*]/.test(host)) return hostname === host;
		if (host.startsWith('*')) host = host.slice(1);
		return hostname.endsWith(host);
	});
}

/**
 * The proxy n8n 2.41 sends a request to `url` through, or undefined: n8n installs proxy agents that resolve
 * each request with proxy-from-env 1.1 (`@n8n/backend-network`), and this is its rule, so every path of the
 * pack goes where n8n's own requests go. `<scheme>_proxy`, then `all_proxy` (each also as `npm_config_…`,
 * either case, lower case first); `no_proxy` lists hosts (`*`, `.suffix`, `*.suffix`, `host:port`) reached
 * directly.
 */
export function proxyFor(url: string, env: Env = process.env): string | undefined {
	return proxySettingFor(url, env)?.proxy;
}

/** The proxy for `url` by n8n's rule (`proxyFor`) and the variable that set it, or undefined. */
export function proxySettingFor(
	url: string,
	env: Env = process.env,
): { proxy: string; variable: string } | undefined {
	// n8n installs its proxy agents only when one of these is set (`hasProxyEnvironmentVariables`).
	if (!proxyConfigured(env)) return undefined;
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return undefined;
	}
	const scheme = target.protocol.replace(/:$/, '');
	const port = Number(target.port) || DEFAULT_PORTS[scheme] || 0;
	if (!target.hostname || bypassed(env, target.hostname.toLowerCase(), port)) return undefined;
	const setting =
		read(env, `npm_config_${scheme}_proxy`) ??
		read(env, `${scheme}_proxy`) ??
		read(env, 'npm_config_proxy') ??
		read(env, 'all_proxy');
	if (!setting) return undefined;
	const { value, variable } = setting;
	return { proxy: value.includes('://') ? value : `${scheme}://${value}`, variable };
}

/** Whether n8n installs its proxy agents in this process: any of these set, in either case. */
export function proxyConfigured(env: Env = process.env): boolean {
	return ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'].some(
		(name) => Boolean(env[name]) || Boolean(env[name.toLowerCase()]),
	);
}

/**
 * Whether requests can go through `proxy`: an http or https proxy, the kinds n8n's own proxy agents speak (to any
 * other, a socks proxy included, they would speak HTTP) and undici's proxy agent too.
 */
export function proxySpoken(proxy: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(proxy).protocol);
	} catch {
		return false;
	}
}
