// Engine-tier helpers for the Calendar/Contacts nodes: one node after a Manual Trigger, run through n8n-core.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	chain,
	PACKAGE_NAME,
	runPoll,
	runWorkflow,
	type RunResult,
} from '../engine/harness/index.ts';
import type { Radicale } from './radicale.ts';
import { RADICALE_USER } from './radicale.ts';

export const CALENDAR = `${PACKAGE_NAME}.cloudStorageCalendar`;
export const CONTACTS = `${PACKAGE_NAME}.cloudStorageContacts`;
export const CALENDAR_TRIGGER = `${PACKAGE_NAME}.cloudStorageCalendarTrigger`;
export const CONTACTS_TRIGGER = `${PACKAGE_NAME}.cloudStorageContactsTrigger`;

export const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });

export function davCredentials(radicale: Radicale, user = RADICALE_USER) {
	return {
		cloudStorageDavApi: { davUrl: radicale.url, username: user.username, password: user.password },
	};
}

export interface DavRun extends RunResult {
	out: INodeExecutionData[];
	json: IDataObject[];
}

export async function runDavNode(
	radicale: Radicale,
	type: string,
	parameters: IDataObject,
	options: { items?: IDataObject[]; continueOnFail?: boolean } = {},
): Promise<DavRun> {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		...(options.items
			? [
					{
						name: 'Items',
						type: 'engine-test.jsonItems',
						parameters: { items: JSON.stringify(options.items) },
					},
				]
			: []),
		{
			name: 'DAV',
			type,
			parameters: parameters as never,
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: davCredentials(radicale) },
	);
	const out = result.nodeOutput('DAV');
	return { ...result, out, json: out.map((item) => item.json) };
}

export async function pollDav(
	radicale: Radicale,
	type: string,
	parameters: IDataObject,
	staticData?: IDataObject,
) {
	return await runPoll(
		{ nodes: [{ name: 'Trigger', type, parameters: parameters as never }], connections: {} },
		{ credentials: davCredentials(radicale), staticData },
	);
}
