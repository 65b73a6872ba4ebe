import { callerOf } from '../auth.ts';
import { html } from '../http/reply.ts';
import { fileRights, folderRights } from '../rights.ts';
import type { Route } from '../router.ts';

const escape = (value: string) =>
	value.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);

const page = (title: string, body: string) =>
	html(
		`<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`,
	);

const notFound = () => ({ ...page('Not found', '<h1>Not found</h1>'), status: 404 });

/** Minimal share pages behind `{web_url}/u/<hash>` and `{web_url}/f/<hash>`, so links the nodes build resolve. */
export const webRoutes: Route[] = [
	{
		api: 'web',
		methods: ['GET', 'HEAD'],
		path: /^\/u\/([^/]+)\/?$/,
		body: 'form',
		handle(req, { store, auth }) {
			const folder = store.folder(req.params[0]);
			if (!folder || !folderRights(folder, callerOf(auth)).allow_view) return notFound();
			const items = store
				.filesIn(folder.id)
				.map((file) => `<li><a href="/f/${file.hash}">${escape(file.name)}</a></li>`);
			return page(folder.name, `<h1>${escape(folder.name)}</h1><ul>${items.join('')}</ul>`);
		},
	},
	{
		api: 'web',
		methods: ['GET', 'HEAD'],
		path: /^\/f\/([^/]+)\/?$/,
		body: 'form',
		handle(req, { store, auth }) {
			const file = store.file(req.params[0]);
			if (!file || !fileRights(store, file, callerOf(auth)).allow_view) return notFound();
			return page(
				file.name,
				`<h1>${escape(file.name)}</h1><a href="/down.php?i=${file.hash}">Download</a>`,
			);
		},
	},
];
