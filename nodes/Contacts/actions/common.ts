import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DavClient } from '../../shared/dav/client';
import { readCollection } from '../../shared/dav/discovery';
import { describeVcard } from '../../shared/dav/vcard';
import { davClient, davUrl } from '../../shared/dav-node/client';
import type { WriteOutcome } from '../../shared/errors/outcome';

export async function contactClient(ctx: IExecuteFunctions, itemIndex: number): Promise<DavClient> {
	return await davClient(ctx, itemIndex, 'contact');
}

export function addressBookUrlParam(
	ctx: IExecuteFunctions,
	client: DavClient,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter('addressBook', itemIndex, '', {
		extractValue: true,
	}) as string;
	return davUrl(ctx, client, value, itemIndex, 'address book');
}

export function contactUrlParam(
	ctx: IExecuteFunctions,
	client: DavClient,
	itemIndex: number,
): string {
	return davUrl(
		ctx,
		client,
		ctx.getNodeParameter('contactUrl', itemIndex, '') as string,
		itemIndex,
		'contact',
	);
}

/** Whether the address book advertises addressbook-multiget, so contacts can be read in batches. */
export async function supportsMultiget(client: DavClient, url: string): Promise<boolean> {
	return (
		(await readCollection(client, url, 'addressbook')).supportedReports?.includes(
			'addressbook-multiget',
		) ?? false
	);
}

export function contactItem(
	object: { url: string; etag?: string; data: string; outcome?: WriteOutcome },
	includeRaw: boolean,
): IDataObject {
	return {
		url: object.url,
		etag: object.etag ?? null,
		// A write's item says how its outcome was known (README, "How requests behave").
		...(object.outcome ? { outcome: object.outcome } : {}),
		...(describeVcard(object.data) as IDataObject),
		...(includeRaw ? { vCard: object.data } : {}),
	};
}

export const includeRawOption = {
	displayName: 'Include Raw VCard',
	name: 'includeRaw',
	type: 'boolean' as const,
	default: false,
	description: 'Whether to add the stored vCard text as the vCard field',
};
