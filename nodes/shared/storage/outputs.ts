import type { IDataObject } from 'n8n-workflow';

import type { StorageAccount } from './client';
import { fileLink, folderLink } from './links';

/** Every folder and file output carries the same field names as get_folder_info/get_file_info, plus its link. */
export function withLink(
	account: StorageAccount,
	item: IDataObject,
	type: 'file' | 'folder',
): IDataObject {
	const hash = String(item.hash ?? '');
	return {
		type,
		...item,
		link: type === 'folder' ? folderLink(account.webUrl, hash) : fileLink(account.webUrl, hash),
	};
}

export function contentItem(account: StorageAccount, item: IDataObject): IDataObject {
	return withLink(account, item, item.type === 'folder' ? 'folder' : 'file');
}
