import { callerOf } from '../auth.ts';
import { empty, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Ctx, Route } from '../router.ts';
import type { Account } from '../types.ts';
import { v2EncryptionActions } from './v2-encryption.ts';
import { v2EsignatureActions } from './v2-esignature.ts';
import { v2FileActions } from './v2-files.ts';
import { v2FolderActions } from './v2-folders.ts';
import { v2UploadActions } from './v2-upload.ts';

export interface V2Action {
	/** `optional`: upload_file (an upload key replaces credentials) and download_file (LINK files). */
	auth: 'required' | 'optional';
	handle: (req: SandboxRequest, ctx: Ctx, caller: Account | undefined) => Reply | Promise<Reply>;
}

const ACTIONS: Record<string, V2Action> = {
	...v2FolderActions,
	...v2FileActions,
	...v2UploadActions,
	...v2EsignatureActions,
	...v2EncryptionActions,
};

/** The clean URL's action, else the `action` parameter (the one V2 parameter the query may carry). */
function actionName(req: SandboxRequest): string | null {
	return req.params[0] || req.body.get('action') || req.query.get('action') || null;
}

export const v2Routes: Route[] = [
	{
		api: 'v2',
		methods: '*',
		path: /^\/api_v2(?:\/([A-Za-z0-9_]*))?\/?$/,
		body: 'form',
		action: actionName,
		handle(req, ctx) {
			if (req.method !== 'POST') return empty(405);
			// V2 takes its parameters from the POST body only; a copy in the query string is not read.
			req.fields = new URLSearchParams(req.body);
			const name = actionName(req) ?? '';
			if (!Object.hasOwn(ACTIONS, name)) return empty(400);
			const action = ACTIONS[name];
			const { auth } = ctx;
			if (auth.kind === 'failed' || auth.kind === 'twofa') return empty(401);
			if (action.auth === 'required' && auth.kind !== 'ok') return empty(401);
			return action.handle(req, ctx, callerOf(auth));
		},
	},
];
