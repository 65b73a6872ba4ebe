import { authenticatorOf } from '../auth/authenticators';
import { keptAlivePath, transferPath } from './binary-mode';
import { proxyConfigured } from './proxy';
import type { ApiRequest } from './request-types';

/** The three ways a request can go, each the same `send -> answer` (request.ts). */
export type TransportPath = 'own socket' | 'undici' | 'helper';

/**
 * The one routing decision, from the request and the environment n8n itself reads (`binary-mode.ts`):
 * - the own socket (`socket-exchange.ts`): a file transfer in n8n's filesystem binary mode, without a proxy or
 *   SSRF protection (`transferPath`), with a credential the transport can apply itself;
 * - undici's kept-alive connections (`calls.ts`): any other call with its body in memory and its answer read
 *   whole, authenticated by one of the pack's credentials, not a session call (n8n's helper renews a session),
 *   while `keptAlivePath` allows it (behind an http or https proxy too);
 * - n8n's request helper: everything else (streamed bodies and answers, session calls, SSRF
 *   protection, CLOUD_STORAGE_KEEP_ALIVE=false).
 */
export function pathFor(request: ApiRequest): TransportPath {
	const { body, credential } = request;
	const as = request.answer?.as;
	const applicable = credential === undefined || !!authenticatorOf(credential.type);
	const fromDisk = body?.kind === 'file' && body.upload.source.path !== undefined;
	// The own socket speaks no proxy: with one configured a download asked for on it goes through n8n's helper.
	const storeOnSocket = as === 'store' && !proxyConfigured();
	if (applicable && (storeOnSocket || (fromDisk && transferPath('upload') !== 'helper')))
		return 'own socket';
	if (keptAlivePath(process.env) !== 'own connections') return 'helper';
	if (as === 'stream' || as === 'store' || body?.kind === 'file') return 'helper';
	if (credential === undefined) return 'undici';
	return credential.mode !== 'session' && applicable ? 'undici' : 'helper';
}
