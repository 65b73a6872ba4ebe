import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AccountSeed } from './accounts.ts';
import { defaultConfig, patchConfig, type SandboxConfig } from './config.ts';
import { Faults } from './faults.ts';
import { rawResponse } from './http/reply.ts';
import { newRequest, type SandboxRequest } from './http/request.ts';
import { handleApiRequest } from './pipeline.ts';
import { newLimiters } from './rate-limit.ts';
import { RequestLog, type LoggedRequest } from './request-log.ts';
import type { Route, Services } from './router.ts';
import { authRoutes } from './routes/auth.ts';
import { CONTROL_PREFIX, controlHandler } from './routes/control.ts';
import { dmsRoutes } from './routes/dms.ts';
import { aiRoutes } from './routes/ai.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { mcpOf } from './mcp/state.ts';
import { esignatureFormRoutes } from './routes/esignature-form.ts';
import { searchRoutes } from './routes/search.ts';
import { dmsOf } from './dms/state.ts';
import { v1Routes } from './routes/v1.ts';
import { v2Routes } from './routes/v2.ts';
import { webRoutes } from './routes/web.ts';
import { Sessions } from './sessions.ts';
import { Store } from './store.ts';

export {
	DEMO_ACCOUNT,
	FREE_ACCOUNT,
	SEEDED_ACCOUNTS,
	TASKS_ACCOUNT,
	TWOFA_ACCOUNT,
} from './accounts.ts';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	host?: string;
	/** Where file bytes go; default a fresh temp dir, removed on close. */
	dataDir?: string;
	/** Default `http://localhost:<port>`: the same server under another host name. */
	webUrl?: string;
	config?: Partial<SandboxConfig>;
	/** Clock in milliseconds, for tests that move time. */
	now?: () => number;
	seeds?: readonly AccountSeed[];
}

export interface Sandbox extends Services {
	port: number;
	dataDir: string;
	/** Back to the seeded accounts: state, sessions, faults, request log and rate limits. */
	reset(): void;
	close(): Promise<void>;
}

/** First match wins: exact auth scripts before the generic V1 pattern. New interfaces append their lists. */
const ROUTES: readonly Route[] = [
	...authRoutes,
	...v1Routes,
	...v2Routes,
	...webRoutes,
	...searchRoutes,
	...esignatureFormRoutes,
	...dmsRoutes,
	...aiRoutes,
	...mcpRoutes,
];

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const ownDataDir = !options.dataDir;
	const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-sandbox-'));
	const config = defaultConfig();
	patchConfig(config, (options.config ?? {}) as Record<string, unknown>);
	const store = new Store({ dataDir, now: options.now, seeds: options.seeds });
	const services: Services = {
		store,
		sessions: new Sessions(config, store.now),
		config,
		faults: new Faults(),
		requests: new RequestLog(),
		limiters: newLimiters(),
		baseUrl: '',
		webUrl: '',
	};
	const reset = () => {
		store.reset();
		dmsOf(store).reset();
		mcpOf(store).reset();
		services.sessions.expireAll();
		services.faults.clear();
		services.requests.clear();
		services.limiters.anonymousListing.clear();
	};
	const control = controlHandler(services, reset);
	const inFlight = new WeakMap<Socket, { req: SandboxRequest; entry: LoggedRequest }>();

	// No request timeout: multi-gigabyte uploads over slow links must be able to finish.
	const server = http.createServer({ requestTimeout: 0 }, (incoming, res) => {
		const ip = incoming.socket.remoteAddress ?? '';
		const req = newRequest(incoming.method ?? 'GET', incoming.url ?? '/', incoming.headers, ip);
		const work = req.pathname.startsWith(CONTROL_PREFIX)
			? control(incoming, res, req)
			: handleApiRequest(incoming, res, req, services, ROUTES, inFlight);
		work.catch((error) => {
			console.error('sandbox: request failed', error);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end();
		});
	});
	// A body that ends before its declared length: Node gives up on the request, so answer on the raw socket.
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		const pending = inFlight.get(socket);
		if (pending && error.code === 'HPE_INVALID_EOF_STATE' && socket.writable) {
			pending.entry.status = pending.req.multipart ? 494 : 400;
			socket.end(rawResponse(pending.entry.status));
		} else if (socket.writable && error.code !== 'ECONNRESET') {
			socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
		} else {
			socket.destroy();
		}
	});

	const host = options.host ?? '127.0.0.1';
	// Idle keep-alive sockets stay open 65 s, as behind a typical load balancer (Node's own default is 5 s,
	// which makes clients on a loaded machine send on sockets that are just closing).
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	services.baseUrl = `http://${host}:${port}`;
	services.webUrl = options.webUrl ?? `http://localhost:${port}`;

	return Object.assign(services, {
		port,
		dataDir,
		reset,
		close: async () => {
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await closed;
			if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
		},
	});
}
