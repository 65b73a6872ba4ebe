// Radicale cannot inject faults, so the DAV fault runs go through this loopback proxy: a seeded share of requests
// gets 429 (with or without Retry-After), 500, 503, a connection dropped before or after Radicale applied it, or
// (rarely) an answer held back past the client's timeout after Radicale applied the request.
import { createServer, request, type Server } from 'node:http';
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
	| 'slow-answer';
export const PROXY_FAULTS: ProxyFault[] = [
	'429',
	'429-retry-after',
	'500',
	'503',
	'drop-before',
	'drop-after',
	'slow-answer',
];
const WEIGHTS: Partial<Record<ProxyFault, number>> = { 'slow-answer': SLOW.weight };

function pick(draw: number): ProxyFault {
	const weightOf = (fault: ProxyFault) => WEIGHTS[fault] ?? 1;
	let point = draw * PROXY_FAULTS.reduce((sum, fault) => sum + weightOf(fault), 0);
	for (const fault of PROXY_FAULTS) {
		point -= weightOf(fault);
		if (point < 0) return fault;
	}
	return PROXY_FAULTS[PROXY_FAULTS.length - 1];
}

export interface FaultProxy {
	url: string;
	/** Starts a seeded schedule (rate 0 = pass everything through); returns nothing, counts in `hits`. */
	setFaults(rate: number, seed: number): void;
	hits: Record<string, number>;
	/** Requests seen since the last setFaults. */
	requests(): number;
	close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
	let rate = 0;
	let random = prng(1);
	const hits: Record<string, number> = {};
	let requests = 0;
	const server: Server = createServer((req, res) => {
		requests++;
		const fault = random() < rate ? pick(random()) : undefined;
		if (fault) hits[fault] = (hits[fault] ?? 0) + 1;
		if (fault === 'drop-before') return void req.socket.destroy();
		if (fault === '429' || fault === '429-retry-after' || fault === '500' || fault === '503') {
			req.resume();
			res
				.writeHead(
					Number(fault.slice(0, 3)),
					fault === '429-retry-after' ? { 'retry-after': '1' } : {},
				)
				.end();
			return;
		}
		const upstream = request(
			new URL(req.url ?? '/', target),
			{ method: req.method, headers: req.headers },
			async (answer) => {
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
					if (res.destroyed || req.socket.destroyed) return void answer.resume();
				}
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		setFaults(newRate, seed) {
			rate = newRate;
			random = prng(seed);
			requests = 0;
			for (const key of Object.keys(hits)) delete hits[key];
		},
		hits,
		requests: () => requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
