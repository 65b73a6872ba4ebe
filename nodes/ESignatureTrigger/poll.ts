import type { IBinaryData, IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { PackError } from '../shared/errors/pack-error';
import { baselineRecorded } from '../shared/node/durable-cursors';
import { eventId } from '../shared/node/event-id';
import {
	fromDate,
	isUsableState,
	newSignatures,
	orderSignatures,
	recordsOf,
	signatureOrdinals,
	type EsignTriggerState,
	type FileSignatures,
	type SignatureRecord,
} from '../shared/esignature/changes';
import { splitList } from '../shared/esignature/input';
import { requireAccount, storageAccount, v2, type StorageAccount } from '../shared/storage/client';
import { downloadFile } from '../shared/storage/download';
import { fileLink, parseLink } from '../shared/storage/links';
import { listScope } from '../shared/storage/scope-listing';
import { mapBounded } from '../shared/transport';
import { DEFAULT_MAX_DOWNLOAD_MB, DEFAULT_MAX_FILES } from './properties';

/** Items a manual "Fetch Test Event" returns. */
const SAMPLE_SIZE = 10;
/** get_esignatures requests in flight at once. */
const CONCURRENCY = 4;

interface WatchedFile {
	hash: string;
	name?: string;
	path?: string;
	size?: number;
}

/** A signature with its place among identical ones (same file, signer and time), 0 for the first. */
type Signature = SignatureRecord & { ordinal: number };

const withOrdinals = (
	previous: FileSignatures | null | undefined,
	records: SignatureRecord[],
): Signature[] => {
	const ordinals = signatureOrdinals(previous, records);
	return records.map((record, i) => ({ ...record, ordinal: ordinals[i] }));
};

/** The signature's id from the record itself, so a re-poll of it gives the same id. */
export const signatureEventId = (record: Signature): string =>
	eventId(
		'esignature',
		'signed',
		record.file_hash,
		record.signer_name,
		record.signing_timestamp,
		record.ordinal,
	);

interface Settings {
	watch: 'folder' | 'files';
	recursive: boolean;
	maxFiles: number;
	download?: { maxBytes: number; property: string };
}

function readSettings(ctx: IPollFunctions): Settings {
	const download = ctx.getNodeParameter('download', false) as boolean;
	const watch = ctx.getNodeParameter('watch', 'folder') as Settings['watch'];
	return {
		watch,
		recursive: watch === 'folder' && (ctx.getNodeParameter('includeSubfolders', true) as boolean),
		maxFiles: Number(ctx.getNodeParameter('maxFiles', DEFAULT_MAX_FILES)),
		download: download
			? {
					maxBytes:
						Number(ctx.getNodeParameter('maxDownloadMb', DEFAULT_MAX_DOWNLOAD_MB)) * 1024 * 1024,
					property: String(ctx.getNodeParameter('binaryPropertyName', 'data')),
				}
			: undefined,
	};
}

/** The listed files: hashes or file links; checked before any request. */
export function parseFileList(value: unknown): string[] {
	const hashes: string[] = [];
	for (const entry of splitList(String(value ?? '').replace(/\n/g, ','))) {
		const link = /^https?:\/\//i.test(entry) ? parseLink(entry, 'file') : undefined;
		const hash = link
			? 'hash' in link
				? link.hash
				: undefined
			: /^https?:|[\s/?#]/i.test(entry)
				? undefined
				: entry;
		if (!hash) {
			throw new PackError(`"${entry}" is not a file hash or file link`, {
				kind: 'input',
				description:
					'Give each file as its hash or its link https://<web host>/f/<hash> (path links /pa/… name a place, not a file, and are not accepted), separated by commas or new lines.',
			});
		}
		if (!hashes.includes(hash)) hashes.push(hash);
	}
	if (!hashes.length)
		throw new PackError('No file given', {
			kind: 'input',
			description: 'Enter at least one file hash or file link under "Files".',
		});
	return hashes;
}

async function watchedFiles(
	ctx: IPollFunctions,
	account: StorageAccount,
	settings: Settings,
): Promise<{ files: WatchedFile[]; scope: string }> {
	if (settings.watch === 'files') {
		return {
			files: parseFileList(ctx.getNodeParameter('files', '')).map((hash) => ({ hash })),
			scope: 'files',
		};
	}
	const listing = await listScope(ctx, account, settings.recursive);
	const files = listing.entries
		.filter((entry) => entry.type === 'file')
		.map(({ hash, name, path, size }) => ({ hash, name, path, size }));
	return { files, scope: `folder|${listing.root.hash}|${settings.recursive ? 'tree' : 'folder'}` };
}

/** get_esignatures for one file; undefined when a listed file vanished meanwhile (folder mode). */
async function signaturesOf(
	ctx: IPollFunctions,
	account: StorageAccount,
	settings: Settings,
	file: WatchedFile,
	from: string | undefined,
): Promise<SignatureRecord[] | undefined> {
	const { status, body } = await v2<unknown>(
		ctx,
		account,
		'get_esignatures',
		{ file_hash: file.hash, ...(from ? { from_date: from } : {}) },
		{ answer: { accept: [405] } },
	);
	if (status < 400) return recordsOf(body, file.hash);
	if (settings.watch === 'folder') return undefined;
	throw new PackError(`The watched file ${file.hash} was not found or cannot be viewed (405)`, {
		kind: 'input',
		httpCode: status,
		description:
			'Remove it from "Files" or check that this account may view it. Nothing was reported; signatures of the other files wait for the next successful poll.',
	});
}

/** Name and size for files watched by hash (the list gives neither); only files with a new signature are asked. */
async function describe(
	ctx: IPollFunctions,
	account: StorageAccount,
	file: WatchedFile,
): Promise<WatchedFile> {
	if (file.name !== undefined) return file;
	const { status, body } = await v2<IDataObject>(
		ctx,
		account,
		'get_file_info',
		{ file_hash: file.hash },
		{ answer: { accept: [403, 404, 405] } },
	);
	if (status >= 400 || !body) return file;
	return {
		...file,
		name: String(body.name ?? ''),
		...(body.size !== undefined ? { size: Number(body.size) } : {}),
	};
}

async function eventItems(
	ctx: IPollFunctions,
	account: StorageAccount,
	settings: Settings,
	records: Signature[],
	files: Map<string, WatchedFile>,
): Promise<INodeExecutionData[]> {
	const described = new Map<string, WatchedFile>();
	const binaries = new Map<string, IBinaryData | string>();
	const items: INodeExecutionData[] = [];
	for (const record of orderSignatures(records)) {
		let file = described.get(record.file_hash);
		if (!file)
			described.set(
				record.file_hash,
				(file = await describe(
					ctx,
					account,
					files.get(record.file_hash) ?? { hash: record.file_hash },
				)),
			);
		const json: IDataObject = {
			event: 'signed',
			eventId: signatureEventId(record),
			file_hash: record.file_hash,
			file_name: file.name ?? null,
			...(file.path !== undefined ? { file_path: file.path } : {}),
			signer_name: record.signer_name,
			signing_timestamp: record.signing_timestamp,
			link: fileLink(account.webUrl, record.file_hash),
		};
		const item: INodeExecutionData = { json };
		if (settings.download) {
			// One download per file per poll, shared by its items.
			if (!binaries.has(record.file_hash)) {
				const result = await downloadFile(ctx, account, record.file_hash, {
					fileName: file.name,
					expectedSize: file.size,
					maxBytes: settings.download.maxBytes,
					missingStatuses: [403, 404, 405],
				});
				binaries.set(
					record.file_hash,
					'binary' in result
						? result.binary
						: result.skipped === 'tooLarge'
							? `larger than the size limit (${result.bytes} bytes)`
							: `the file is no longer available (status ${result.status})`,
				);
			}
			const content = binaries.get(record.file_hash)!;
			if (typeof content === 'string') json.download_skipped = content;
			else item.binary = { [settings.download.property]: content };
		}
		items.push(item);
	}
	return items;
}

function checkCap(settings: Settings, files: WatchedFile[]): void {
	if (files.length <= settings.maxFiles) return;
	throw new PackError(
		`${files.length} files are watched, more than the ${settings.maxFiles} allowed ("Max Watched Files")`,
		{
			kind: 'input',
			description:
				'Each watched file costs one request per poll. Nothing was reported and nothing is lost: the next poll after a fix reports every signature since the last successful one (unless what is watched changed). Watch a smaller folder, turn off "Include Subfolders", or raise the limit.',
		},
	);
}

export async function pollSignatures(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const account = await storageAccount(ctx);
	requireAccount(ctx, account, 0);
	const { files, scope } = await watchedFiles(ctx, account, settings);
	checkCap(settings, files);
	const byHash = new Map(files.map((file) => [file.hash, file]));

	if (ctx.getMode() === 'manual') {
		// Every signature of the watched files, newest first; nothing is stored.
		const all = (
			await mapBounded(files, CONCURRENCY, async (file) =>
				withOrdinals(
					undefined,
					(await signaturesOf(ctx, account, settings, file, undefined)) ?? [],
				),
			)
		).flat();
		const recent = orderSignatures(all).reverse().slice(0, SAMPLE_SIZE).reverse();
		const items = await eventItems(ctx, account, settings, recent, byHash);
		if (items.length) return [items.reverse()];
		throw new PackError('No signature was found on the watched files', {
			kind: 'input',
			description:
				'Have a watched file signed (or watch another folder), then fetch a test event again.',
		});
	}

	const staticData = ctx.getWorkflowStaticData('node');
	const stored = isUsableState(staticData.state, scope) ? staticData.state : undefined;
	const answers = await mapBounded(
		files,
		CONCURRENCY,
		async (file) => await signaturesOf(ctx, account, settings, file, fromDate(stored, file.hash)),
	);
	const next: EsignTriggerState = { v: 1, scope, files: {} };
	const fresh: Signature[] = [];
	files.forEach((file, index) => {
		const known = stored && Object.hasOwn(stored.files, file.hash);
		const previous: FileSignatures | null | undefined = known ? stored.files[file.hash] : undefined;
		const records = answers[index];
		if (records === undefined) {
			// Listed, then gone before its signatures were read: keep what was known until it is no longer listed.
			if (known) next.files[file.hash] = previous ?? null;
			return;
		}
		const result = newSignatures(previous, records);
		next.files[file.hash] = result.next;
		// On the first poll, and for a file newly added to a list, signatures already made are recorded, not reported;
		// a file that appears in a watched folder reports every signature it carries.
		if (stored && (known || settings.watch === 'folder'))
			fresh.push(...withOrdinals(previous, result.fresh));
	});
	const items = stored ? await eventItems(ctx, account, settings, fresh, byHash) : [];
	// Every request is done: only now does the state move on. An unchanged state is not written.
	if (JSON.stringify(next) !== JSON.stringify(staticData.state))
		staticData.state = next as unknown as IDataObject;
	if (!stored) return baselineRecorded();
	return items.length ? [items] : null;
}
