import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate } from './auth.ts';
import { readBody } from './http/body.ts';
import { empty, sendReply, type Reply } from './http/reply.ts';
import type { BodyProblem, SandboxRequest } from './http/request.ts';
import { removeTemp } from './http/upload-sink.ts';
import type { LoggedRequest } from './request-log.ts';
import { matchRoute, type Route, type Services } from './router.ts';

function problemReply(problem: BodyProblem, req: SandboxRequest): Reply {
	// A multipart body cut short is the documented partial upload (494); anything else malformed is 400.
	return empty(problem === 'truncated' && req.multipart ? 494 : 400);
}

/**
 * Route → body → faults → authentication → handler → answer. The body is read completely (uploads to
 * disk) before anything else, because credentials may follow the file part in a multipart body.
 */
export async function handleApiRequest(
	incoming: IncomingMessage,
	res: ServerResponse,
	req: SandboxRequest,
	services: Services,
	routes: readonly Route[],
	inFlight: WeakMap<Socket, { req: SandboxRequest; entry: LoggedRequest }>,
): Promise<void> {
	const { store, config, faults, requests } = services;
	const entry = requests.start(req.method, req.pathname, req.rawUrl);
	const socket = incoming.socket;
	inFlight.set(socket, { req, entry });
	const answer = async (reply: Reply) => {
		entry.status = reply.status;
		// An origin server with a clock dates its answers by that clock (RFC 9110 6.6.1): the service's own,
		// which a test may set apart from the client's (StoreOptions.now).
		res.setHeader('Date', new Date(store.now() + faults.dateOffsetMs).toUTCString());
		await sendReply(res, reply).catch(() => undefined);
	};
	const drop = (outcome: LoggedRequest['outcome']) => {
		entry.outcome = outcome;
		socket.destroy();
	};
	try {
		const match = matchRoute(routes, req.method, req.pathname);
		if (!match) {
			incoming.resume();
			return await answer(empty(404));
		}
		entry.api = match.route.api;
		req.params = match.params;
		const limits = {
			tmpDir: store.tmpDir,
			fileCap: store.maxFileSizeLimit(),
			maxFormBytes: config.maxFormBytes,
		};
		const problem = await readBody(incoming, req, match.route.body, limits);
		entry.fields = [...new Set(req.body.keys()), ...req.files.map((file) => `file:${file.field}`)];
		if (problem === 'aborted') {
			// Either the client vanished, or clientError already answered 494 on the raw socket.
			if (entry.status === null) drop('aborted');
			return;
		}
		entry.action = match.route.action?.(req) ?? null;

		const fault = faults.take({
			method: req.method,
			path: req.pathname,
			action: entry.action,
			json: req.json,
			fileNames: req.files.map((file) => file.filename),
		});
		entry.fault = fault?.fault ?? null;
		if (fault?.fault === 'drop-before') return drop('dropped');
		if (fault?.fault === '429' || fault?.fault === '500' || fault?.fault === '503') {
			const headers: Record<string, string> =
				fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
			return await answer(empty(Number(fault.fault), headers));
		}
		if (fault?.fault === 'slow') await sleep(fault.delayMs ?? 0);

		if (problem) return await answer(problemReply(problem, req));
		if (!match.methodAllowed) return await answer(empty(405));
		const auth = authenticate(req, store, services.sessions);
		entry.authMethod = auth.kind === 'none' ? null : `${auth.method}:${auth.kind}`;
		let reply: Reply;
		try {
			reply = await match.route.handle(req, { ...services, auth, entry });
		} catch (error) {
			console.error('sandbox: handler failed', error);
			reply = empty(500);
		}
		if (fault?.fault === 'drop-after') {
			// The write is applied; the answer never arrives (an "uncertain write" for the client).
			entry.status = reply.status;
			return drop('dropped');
		}
		// The write is applied; the answer comes late, perhaps after the client stopped waiting.
		if (fault?.fault === 'slow-answer') await sleep(fault.delayMs ?? 0);
		await answer(reply);
	} finally {
		inFlight.delete(socket);
		removeTemp(req.files);
	}
}
