import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { parseEmails, splitList } from '../../../shared/esignature/input';
import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { fileHashParam, locate } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withOutcome } from '../../../shared/errors/outcome';
import { markedWriteFailure } from '../../../shared/errors/write-failure';

const properties: INodeProperties[] = [
	fileLocator('file', {
		description: 'The file to be signed (the account needs edit rights on it)',
	}),
	{
		displayName: 'Recipient E-Mails',
		name: 'emails',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'anna@example.com, ben@example.com',
		description: 'Who is asked to sign; separate several addresses with commas',
	},
	{
		displayName: 'Message',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Optional text included in the signing request e-mail',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Next Share E-Mails',
				name: 'nextShareEmails',
				type: 'string',
				default: '',
				placeholder: 'carla@example.com',
				description:
					'Addresses prefilled for recipients who may pass the signing request on; separate with commas',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['signature'], operation: ['request'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		nextShareEmails?: string | string[];
	};
	const emails = parseEmails(
		this.getNodeParameter('emails', itemIndex, ''),
		'Recipient E-Mails',
		true,
	);
	const nextShare = parseEmails(options.nextShareEmails, 'Next Share E-Mails', false);
	const text = String(this.getNodeParameter('text', itemIndex, '') ?? '').trim();
	locate(this, 'file', 'file', itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	// Sending e-mails is a write without an idempotency key: never repeated after an uncertain outcome.
	const { body } = await v2<{ status?: string; sent_emails?: string; next_share_emails?: string }>(
		this,
		account,
		'esignature_share',
		{
			file_hash: fileHash,
			emails,
			text: text || undefined,
			next_share_emails: nextShare.length ? nextShare : undefined,
		},
		{
			itemIndex,
			write: {
				hint: 'The signing request may have been e-mailed already. Ask the recipients before running this item again, or they may get it twice.',
			},
		},
	).catch((error: unknown) => {
		throw markedWriteFailure(error);
	});
	if (body?.status === 'error') {
		const message = 'The service did not send the signing request (status "error")';
		const description =
			'Check that the file can be signed (a document type the signing service accepts) and that e-signing is enabled for the account.';
		throw withOutcome(
			new NodeApiError(
				this.getNode(),
				{ message, description },
				{ message, description, itemIndex },
			),
			'not-applied',
		);
	}
	return [
		{
			json: {
				file_hash: fileHash,
				status: body?.status ?? null,
				sent_emails: splitList(body?.sent_emails),
				next_share_emails: splitList(body?.next_share_emails),
				outcome: 'applied',
			},
		},
	];
}
