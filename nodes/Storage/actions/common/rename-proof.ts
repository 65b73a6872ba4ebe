import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { v2, type StorageAccount } from '../../../shared/storage/client';
import { mayHaveBeenApplied, writeOutcome } from '../../../shared/storage/reconcile';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The requested name, or a numbered variant of it (before a file's extension). The documents show a taken name
 * suffixed "such as (1)": " (1)" is what the service answers today; "(1)", "_1" and "-1" are accepted too.
 */
export function isNameOrVariant(stored: string, requested: string, isFile: boolean): boolean {
	if (stored === requested) return true;
	const dot = isFile ? requested.lastIndexOf('.') : -1;
	const [base, extension] =
		dot > 0 ? [requested.slice(0, dot), requested.slice(dot)] : [requested, ''];
	return new RegExp(`^${escape(base)}(?: ?\\(\\d+\\)|[_-]\\d+)${escape(extension)}$`).test(stored);
}

/**
 * rename_file / rename_folder with its outcome proven after a lost answer: the name is read before, and
 * again after. The old name: not applied, so it is sent again (renaming is safe to repeat then); this test
 * comes first, since the old name may itself be a " (n)" variant of the new one (`report (1).pdf` →
 * `report.pdf`), and then only the second answer can tell. The new name or a numbered variant of it: applied. Anything else (another client renamed it meanwhile, or the service
 * normalized the name beyond recognition): "may have been applied", naming the name it has now.
 */
export async function renameProven(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	kind: 'file' | 'folder',
	hash: string,
	name: string,
	itemIndex: number,
): Promise<{ hash: string; name: string; outcome: IDataObject }> {
	const currentName = async () =>
		String(
			(
				await v2<IDataObject>(
					ctx,
					account,
					`get_${kind}_info`,
					{ [`${kind}_hash`]: hash },
					{ itemIndex },
				)
			).body?.name ?? '',
		);
	const before = await currentName();
	const response = await v2<IDataObject>(
		ctx,
		account,
		`rename_${kind}`,
		{ [`${kind}_hash`]: hash, [`${kind}_name`]: name },
		{
			itemIndex,
			write: {
				reconcile: async () => {
					const now = await currentName();
					if (now === before) return undefined;
					if (isNameOrVariant(now, name, kind === 'file'))
						return { [`${kind}_hash`]: hash, [`${kind}_name`]: now };
					throw mayHaveBeenApplied(
						ctx,
						itemIndex,
						`the answer to renaming ${kind} ${hash} to "${name}" was lost, and it is now named "${now}" (it was "${before}")`,
						`Another client may have renamed it meanwhile, or the service changed the name it stored. Check the ${kind}'s name before running this item again; the node did not send the rename twice.`,
					);
				},
			},
		},
	);
	const { body } = response;
	return {
		hash: String(body?.[`${kind}_hash`] ?? hash),
		name: String(body?.[`${kind}_name`] ?? name),
		outcome: writeOutcome(response),
	};
}
