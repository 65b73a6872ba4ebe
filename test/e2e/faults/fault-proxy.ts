// Radicale cannot inject faults, so the DAV fault runs go through this loopback proxy: a seeded share of requests
// gets 429 (with or without Retry-After), 500, 503, a connection dropped before or after Radicale applied it,
// (rarely) an answer held back past the client's timeout after Radicale applied the request, or (`slow`, in
// the shared world) the request held back and applied by Radicale only after the client's timeout ended.
// The shared world (issue #35) also shifts the `Date` of every answer and lets a second client act as each
// request arrives; every answer Radicale gives is reported, so a tally can count what was applied.
import {
	createServer,
	request,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { prng } from '../../sandbox/prng';
import { SLOW } from './tally';

export type ProxyFault =
	| '429'
	| '429-retry-after'
	| '500'
	| '503'
	| 'drop-before'
	| 'drop-after'
	| 'slow-answer'
	| 'slow';
export const PROXY_FAULTS: ProxyFault[] = [
	'429',
	'429-retry-after',
	'500',
	'503',
	'drop-before',
	'drop-after',
	'slow-answer',
];
const WEIGHTS: Partial<Record<ProxyFault, number>> = {
	'slow-answer': SLOW.weight,
	slow: SLOW.weight,
};
/** Faults after which Radicale never saw the request. */
export const STOPPED: ReadonlySet<ProxyFault> = new Set([
	'429',
	'429-retry-after',
	'500',
	'503',
	'drop-before',
]);

function pick(draw: number, kinds: ProxyFault[]): ProxyFault {
	const weightOf = (fault: ProxyFault) => WEIGHTS[fault] ?? 1;
	let point = draw * kinds.reduce((sum, fault) => sum + weightOf(fault), 0);
	for (const fault of kinds) {
		point -= weightOf(fault);
		if (point < 0) return fault;
	}
	return kinds[kinds.length - 1];
}

/** A request as it arrived at the proxy: path (with query), method, headers and the whole body. */
export interface SeenRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/** The shared world of one stage; every hook is optional. */
export interface ProxyWorld {
	/** Shifts the `Date` header of every answer (the server's clock off its stored timestamps). */
	dateOffsetMs?: number;
	/** Adds the `slow` fault: the request applied only after the client's timeout ended. */
	slow?: boolean;
	/** The second client: runs as a request arrived (before it is forwarded), told whether a fault stops it. */
	meanwhile?: (seen: SeenRequest, stopped: boolean) => Promise<void>;
	/**
	 * Radicale's status for a request it handled, told whether the client will miss the answer (dropped,
	 * held past its timeout); the answer goes on only once this resolves.
	 */
	answered?: (seen: SeenRequest, status: number, answerLost: boolean) => Promise<void> | void;
}

export interface FaultProxy {
	url: string;
	/** Starts a seeded schedule (rate 0 = pass everything through); returns nothing, counts in `hits`. */
	setFaults(rate: number, seed: number, world?: ProxyWorld): void;
	hits: Record<string, number>;
	/** Requests seen since the last setFaults. */
	requests(): number;
	/** Resolves once no request is being handled (a `slow` one may land after the workflow ended). */
	idle(): Promise<void>;
	close(): Promise<void>;
}

const shifted = (date: string | undefined, offsetMs: number) =>
	new Date((date ? Date.parse(date) : Date.now()) + offsetMs).toUTCString();

export async function startFaultProxy(target: string): Promise<FaultProxy> {
	let rate = 0;
	let random = prng(1);
	let world: ProxyWorld = {};
	const hits: Record<string, number> = {};
	let requests = 0;
	let busy = 0;
	let settled: Array<() => void> = [];
	const done = () => {
		if (--busy > 0) return;
		for (const resolve of settled) resolve();
		settled = [];
	};
	const dated = (headers: OutgoingHttpHeaders): OutgoingHttpHeaders =>
		world.dateOffsetMs
			? { ...headers, date: shifted(headers.date as string | undefined, world.dateOffsetMs) }
			: headers;

	async function handle(req: IncomingMessage, res: ServerResponse) {
		requests++;
		// Drawn as the request arrives, so the schedule does not depend on how long bodies take to come.
		const kinds = world.slow ? [...PROXY_FAULTS, 'slow' as const] : PROXY_FAULTS;
		const fault = random() < rate ? pick(random(), kinds) : undefined;
		if (fault) hits[fault] = (hits[fault] ?? 0) + 1;
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const seen: SeenRequest = {
			method: req.method ?? 'GET',
			path: req.url ?? '/',
			headers: req.headers,
			body: Buffer.concat(chunks).toString('utf8'),
		};
		await world.meanwhile?.(seen, fault !== undefined && STOPPED.has(fault));
		if (fault === 'drop-before') return void req.socket.destroy();
		if (fault === '429' || fault === '429-retry-after' || fault === '500' || fault === '503') {
			res
				.writeHead(
					Number(fault.slice(0, 3)),
					dated(fault === '429-retry-after' ? { 'retry-after': '1' } : {}),
				)
				.end();
			return;
		}
		// Held before Radicale sees it: the client gives up first, and Radicale applies it all the same.
		if (fault === 'slow') await sleep(SLOW.delayMs);
		const headers = { ...req.headers };
		delete headers['transfer-encoding'];
		headers['content-length'] = String(Buffer.concat(chunks).length);
		await new Promise<void>((resolve) => {
			const upstream = request(
				new URL(seen.path, target),
				{ method: seen.method, headers },
				async (answer) => {
					answer.pause();
					await world.answered?.(
						seen,
						answer.statusCode ?? 502,
						fault === 'drop-after' || fault === 'slow-answer' || fault === 'slow',
					);
					answer.on('end', resolve);
					answer.on('error', () => resolve());
					if (fault === 'drop-after') {
						// Radicale has applied the request; the client never learns the outcome.
						answer.resume();
						answer.on('end', () => req.socket.destroy());
						return;
					}
					// Radicale has applied the request; the answer comes after the client's timeout (if it still listens).
					if (fault === 'slow-answer') {
						answer.pause();
						await sleep(SLOW.delayMs);
					}
					if (res.destroyed || req.socket.destroyed) return void answer.resume();
					res.writeHead(answer.statusCode ?? 502, dated(answer.headers));
					answer.pipe(res);
				},
			);
			upstream.on('error', () => {
				res.destroy();
				resolve();
			});
			upstream.end(Buffer.concat(chunks));
		});
	}

	const server: Server = createServer((req, res) => {
		busy++;
		handle(req, res)
			.catch(() => res.destroy())
			.finally(done);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		setFaults(newRate, seed, newWorld = {}) {
			rate = newRate;
			random = prng(seed);
			world = newWorld;
			requests = 0;
			for (const key of Object.keys(hits)) delete hits[key];
		},
		hits,
		requests: () => requests,
		idle: async () => {
			if (busy > 0) await new Promise<void>((resolve) => settled.push(resolve));
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
