import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { writeOutcome } from '../../../shared/storage/reconcile';
import { formBody } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName:
			'The output contains a new secret access token. Store it in a credential right away and do not log or forward it: anyone holding it acts as this account. Tokens can be revoked in the account settings.',
		name: 'sensitiveNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['createAccessToken'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const response = await v1<{ UserData?: { user_access_token?: string; UserName?: string } }>(
		this,
		account,
		'api/authenticate_user.php',
		{
			body: formBody({ get_user_access_token: 1 }),
			itemIndex,
			write: {},
		},
	);
	const { body } = response;
	const token = body?.UserData?.user_access_token;
	if (!token) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'no token' },
			{
				itemIndex,
				message: 'The service did not return an access token',
				description:
					'Check that this account may create access tokens (account settings → API keys).',
			},
		);
	}
	return [
		{
			json: {
				user: body?.UserData?.UserName ?? null,
				user_access_token: token,
				...writeOutcome(response),
			},
		},
	];
}
