import type { Readable } from 'node:stream';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	requireAccount,
	storageAccount,
	v1,
	v2,
	type StorageAccount,
} from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { mayHaveBeenApplied, writeOutcome } from '../../../shared/storage/reconcile';
import { contentOf, sameContent, storedContent } from '../../../shared/storage/content-proof';
import { withOutcome } from '../../../shared/errors/outcome';
import { binarySource, fileBody } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName:
			'Replacing goes through the legacy save_file.php (do=update), whose full flow the documents do not show. The node sends the folder, its upload key, do=update and the file hash in the query and expects the file to keep its hash and name.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
	},
	{
		...fileLocator(),
		description: 'The file whose content is replaced; its hash and link stay the same',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the new content',
	},
	{
		displayName: 'BUSINESS and ENTERPRISE accounts keep the previous content as a version.',
		name: 'versionNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['replace'] } },
	properties,
);

async function fileInfo(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	hash: string,
	itemIndex: number,
) {
	return (await v2<IDataObject>(ctx, account, 'get_file_info', { file_hash: hash }, { itemIndex }))
		.body;
}

/**
 * The ETag of the file's content, from the headers of its download (the body is not read). The documents
 * say the ETag changes after a replacement, so an unchanged one shows that nothing replaced the content; a
 * changed one proves nothing about whose replacement it was (another client's, or an ETag that differs per
 * backend). Undefined when the service sends none.
 */
async function contentEtag(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	hash: string,
	itemIndex: number,
): Promise<string | undefined> {
	const { headers, body } = await v2<Readable>(
		ctx,
		account,
		'download_file',
		{ file_hash: hash },
		{ itemIndex, answer: { as: 'stream' } },
	);
	body?.destroy?.();
	const etag = Array.isArray(headers.etag) ? headers.etag[0] : headers.etag;
	return etag || undefined;
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const source = await binarySource(this, itemIndex, propertyName);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	// Replacing goes through the legacy upload script, which names the folder and proves rights with its upload key.
	const before = await fileInfo(this, account, fileHash, itemIndex);
	const folderHash = before.parent_folder_hash as string | null;
	if (!folderHash) {
		throw new NodeOperationError(
			this.getNode(),
			"The file's folder is not visible to this account",
			{
				itemIndex,
				description: "Replacing content needs upload rights on the file's folder.",
			},
		);
	}
	const { body: folder } = await v2<IDataObject>(
		this,
		account,
		'get_folder_info',
		{ folder_hash: folderHash },
		{ itemIndex },
	);
	const etagBefore = await contentEtag(this, account, fileHash, itemIndex);
	const response = await v1(this, account, 'save_file.php', {
		itemIndex,
		answer: { as: 'text' },
		// As documented: every parameter in the query, only the file in the multipart body.
		query: {
			up_id: folderHash,
			...(folder.add_files_key ? { key: String(folder.add_files_key) } : {}),
			do: 'update',
			replace_file_hash: fileHash,
		},
		// Described once: the transport sends it from disk in n8n's filesystem binary mode, else through n8n's helper.
		body: fileBody({
			fields: {},
			field: 'file',
			fileName: String(before.name ?? source.fileName),
			source,
		}),
		write: {
			uncertainStatuses: [494],
			// Proven by content: the bytes stored now, against those sent (size, then CRC-32 of a download).
			reconcile: async () => {
				const sent = await contentOf(source);
				const now = await fileInfo(this, account, fileHash, itemIndex);
				if (
					Number(now.size) === sent.size &&
					sameContent(await storedContent(this, account, fileHash, itemIndex), sent)
				)
					return now;
				// Not what was sent, and its ETag unchanged: nothing replaced it, so sending it again is safe.
				if (
					etagBefore !== undefined &&
					(await contentEtag(this, account, fileHash, itemIndex)) === etagBefore
				)
					return undefined;
				throw mayHaveBeenApplied(
					this,
					itemIndex,
					`the answer to replacing the content of ${fileHash} was lost, and what it stores now is not what was sent, yet it may have changed since (${etagBefore === undefined ? 'the service sends no ETag' : 'its ETag changed'}): another client may have replaced it meanwhile`,
					'Download the file and compare it with the new content before running this item again; the node did not send it twice (a second replacement adds a version on BUSINESS and ENTERPRISE accounts).',
				);
			},
		},
	});
	try {
		const after = await fileInfo(this, account, fileHash, itemIndex);
		return [
			{ json: { ...withLink(account, after, 'file'), replaced: true, ...writeOutcome(response) } },
		];
	} catch (error) {
		// Replaced: only reading the file back failed.
		throw withOutcome(
			error as Error,
			response.reconciled ? 'applied-after-lost-answer' : 'applied',
		);
	}
}
