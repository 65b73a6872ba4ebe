import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { dmsWrite } from '../../../shared/dms/client';
import { MAY_HAVE_BEEN_APPLIED } from '../../../shared/errors/outcome';
import { toList } from '../../../shared/dms/convert';
import { documentLocator } from '../../../shared/dms/descriptions';
import { documentId } from '../../../shared/dms/lookup';
import { isPackError } from '../../../shared/errors/pack-error';

const properties: INodeProperties[] = [
	documentLocator('task', 'documentId'),
	{
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description:
			'Plain text. HTML is not interpreted: the service stores it escaped, so it shows as typed.',
	},
	{
		displayName: 'Mention User Names or IDs',
		name: 'mentions',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getMentionUsers' },
		default: [],
		description:
			'Users to mention: each is written as @[USER:&lt;ID&gt;] at the start of the comment. Anyone in the organisation can be mentioned; the list shows the workers of the task\'s project (the service lists no other users to a task writer). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName:
			'Each mentioned user gets a mention e-mail, even one who cannot open the task; followers and external followers are notified of the comment. Mention IDs are sent as given, unchecked: an ID outside the organisation stays plain text and reaches nobody.',
		name: 'mentionNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['addComment'] } },
	properties,
);

const MENTION = /@\[USER:(\d+)\]/g;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const taskId = documentId(this, 'documentId', 'task', itemIndex);
	const text = String(this.getNodeParameter('comment', itemIndex, '') ?? '');
	const picked = toList(this.getNodeParameter('mentions', itemIndex, []));
	const fail = (message: string, description?: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex, description });
	const mentioned = picked.map((value) => {
		const id = Number(String(value).trim());
		if (!Number.isInteger(id) || id <= 0)
			throw fail(`"${String(value)}" is not a user ID to mention`);
		return id;
	});
	const typed = [...text.matchAll(MENTION)].map((match) => Number(match[1]));
	const comment = [
		...mentioned.filter((id) => !typed.includes(id)).map((id) => `@[USER:${id}]`),
		text.trim(),
	]
		.filter(Boolean)
		.join(' ');
	if (text.trim() === '' && mentioned.length === 0)
		throw fail(
			'The comment is empty',
			'Write the comment text (it must not be empty after trimming).',
		);
	// No lookup: mentions reach anyone in the organisation, and no action a task writer may call lists them all.
	const everyone = [...new Set([...mentioned, ...typed])];
	const { outcome } = await dmsWrite(
		this,
		'task',
		'add_comment',
		{ dvs_document_id: taskId, comment },
		{
			itemIndex,
			write: {
				hint: "The documents offer no read of a task's comments, so the node cannot look; sending it again would post it twice and repeat the e-mails. Open the task in the web interface to check before running this item again.",
			},
		},
	).catch((error: unknown) => {
		// No read can settle it: the message names the task and the comment, so the user knows what to look for.
		if (
			(error instanceof NodeApiError || isPackError(error)) &&
			/may (or may not )?have been applied/.test(error.message)
		) {
			const excerpt = comment.length > 200 ? `${comment.slice(0, 200)}…` : comment;
			error.message = `${MAY_HAVE_BEEN_APPLIED}: the comment on task ${taskId}, "${excerpt}" (${error.message})`;
		}
		throw error;
	});
	return [{ json: { dvs_document_id: taskId, comment, mentioned_user_ids: everyone, outcome } }];
}
