import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { json, type Reply } from '../http/reply.ts';
import { flag, type SandboxRequest } from '../http/request.ts';
import { sqlDateTime } from '../ids.ts';
import type { Ctx, Route } from '../router.ts';
import type { Store } from '../store.ts';
import type { Folder, StoredFile } from '../types.ts';
import { FORM_SCRIPT } from './esignature-form-script.ts';

const FORMATS = ['edoc', 'pdf', 'asice'];
/** The form runs on another origin (an n8n page), so the sandbox's signing answer must be readable there. */
const CORS = { 'Access-Control-Allow-Origin': '*' };

const answer = (data: unknown, status = 200): Reply => {
	const reply = json(data, status);
	return { ...reply, headers: { ...reply.headers, ...CORS } };
};

/** A signed copy in the same folder, with a signature record, as the provider would leave it. */
function signedFile(
	store: Store,
	folder: Folder,
	sources: StoredFile[],
	name: string,
	signer: string,
): StoredFile {
	const tmpPath = path.join(store.tmpDir, `signed-${randomUUID()}`);
	const lines = sources.map((source) => `${source.name} sha256=${source.sha256}`);
	const content = Buffer.from(`SANDBOX SIGNED CONTAINER\nsigner: ${signer}\n${lines.join('\n')}\n`);
	fs.writeFileSync(tmpPath, content);
	const sha256 = createHash('sha256').update(content).digest('hex');
	const file = store.addFile(folder, { name, tmpPath, size: content.length, sha256 });
	store.esign.signatures.push({
		fileId: file.id,
		file_hash: file.hash,
		signing_timestamp: sqlDateTime(store.unix()),
		signer_name: signer,
	});
	return file;
}

const stem = (name: string) =>
	name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name;

/**
 * Sandbox-only endpoint behind the form (the real form talks to the signing provider): signs one file
 * (file_hash + file_delete_key) or the files of a folder (folder_hash + folder_edit_key), all in one or
 * each separately, and answers the spec's signing result object. `fail=1` answers an unsuccessful result.
 */
function sign(req: SandboxRequest, ctx: Ctx): Reply {
	const { store } = ctx;
	const field = (name: string) => req.fields.get(name) ?? '';
	const format = FORMATS.includes(field('format')) ? field('format') : 'pdf';
	const signer = field('signer') || 'Sandbox Signer';
	if (field('file_hash')) {
		const file = store.file(field('file_hash'));
		if (!file || file.deleteKey !== field('file_delete_key')) {
			return answer({ success: false, message: 'file not found or wrong delete key' }, 403);
		}
		if (flag(field('fail'))) return answer({ success: false, file_hash: file.hash });
		const folder = store.folders.get(file.folderId)!;
		const signed = signedFile(
			store,
			folder,
			[file],
			`${stem(file.name)} (signed).${format}`,
			signer,
		);
		return answer({
			success: true,
			file_hash: file.hash,
			signed_file_format: format,
			signed_file_hash: signed.hash,
			signed_file_delete_key: signed.deleteKey,
		});
	}
	const folder = store.folder(field('folder_hash'));
	if (!folder || folder.editKey !== field('folder_edit_key')) {
		return answer({ success: false, message: 'folder not found or wrong edit key' }, 403);
	}
	const files = store.filesIn(folder.id);
	if (flag(field('fail')) || !files.length)
		return answer({ success: false, folder_hash: folder.hash });
	if (flag(field('separate'))) {
		const signed = files.map((file) => ({
			original_file_name: file.name,
			file: signedFile(store, folder, [file], `${stem(file.name)} (signed).${format}`, signer),
		}));
		return answer({
			success: true,
			folder_hash: folder.hash,
			signed_file_format: format,
			signed_file_hashes: signed.map(({ original_file_name, file }) => ({
				original_file_name,
				signed_file_hash: file.hash,
				signed_file_delete_key: file.deleteKey,
			})),
		});
	}
	const container = signedFile(store, folder, files, `${folder.name} (signed).${format}`, signer);
	return answer({
		success: true,
		folder_hash: folder.hash,
		signed_file_format: format,
		signed_file_hash: container.hash,
		signed_file_delete_key: container.deleteKey,
	});
}

export const esignatureFormRoutes: Route[] = [
	{
		api: 'esignature',
		methods: ['GET'],
		path: '/esignature/form.js',
		body: 'form',
		action: () => 'esignature_form',
		handle: () => ({
			status: 200,
			headers: { 'Content-Type': 'application/javascript; charset=utf-8', ...CORS },
			body: FORM_SCRIPT,
		}),
	},
	{
		api: 'esignature',
		methods: ['POST'],
		path: '/esignature/sign',
		body: 'form',
		action: () => 'esignature_sign',
		handle: sign,
	},
];
