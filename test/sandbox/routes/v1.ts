import { callerOf } from '../auth.ts';
import { empty, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Ctx, Route } from '../router.ts';
import type { Account } from '../types.ts';
import { downloadReply } from './v2-files.ts';
import { v1FileScripts } from './v1-files.ts';
import { v1FolderScripts } from './v1-folders.ts';
import { v1Scripts } from './v1-scripts.ts';
import { saveFile } from './save-file.ts';

/** One legacy `api/<name>.php` script. */
export interface V1Script {
	methods: readonly string[];
	auth: 'required' | 'optional';
	handle: (req: SandboxRequest, ctx: Ctx, caller: Account | undefined) => Reply | Promise<Reply>;
}

const SCRIPTS: Record<string, V1Script> = {
	...v1Scripts,
	...v1FolderScripts,
	...v1FileScripts,
};

/** Central-authenticator gate shared by all V1 scripts: a failed attempt is 401 even where anonymous use is allowed. */
function gate(ctx: Ctx, auth: 'required' | 'optional'): Reply | undefined {
	if (ctx.auth.kind === 'failed' || ctx.auth.kind === 'twofa') return empty(401);
	if (auth === 'required' && ctx.auth.kind !== 'ok') return empty(401);
	return undefined;
}

export const v1Routes: Route[] = [
	{
		api: 'v1',
		methods: '*',
		path: /^\/api\/([A-Za-z0-9_]+)\.php$/,
		body: 'form-or-json',
		action: (req) => req.params[0],
		handle(req, ctx) {
			const name = req.params[0];
			if (!Object.hasOwn(SCRIPTS, name)) return empty(404);
			const script = SCRIPTS[name];
			if (!script.methods.includes(req.method)) return empty(405);
			return gate(ctx, script.auth) ?? script.handle(req, ctx, callerOf(ctx.auth));
		},
	},
	{
		api: 'v1',
		methods: ['GET'],
		path: '/down.php',
		body: 'form',
		action: () => 'down',
		handle: (req, ctx) =>
			gate(ctx, 'optional') ??
			downloadReply(ctx.store, req.query.get('i'), callerOf(ctx.auth), true),
	},
	{
		api: 'v1',
		methods: ['POST'],
		path: '/save_file.php',
		body: 'form',
		action: (req) => (req.query.get('do') === 'update' ? 'save_file:update' : 'save_file'),
		handle: (req, ctx) => gate(ctx, 'optional') ?? saveFile(req, ctx, callerOf(ctx.auth)),
	},
];
