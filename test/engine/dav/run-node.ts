/**
 * What the engine files of this folder share: the DAV account of their nock'd server and one Calendar or
 * Contacts node run after a Manual Trigger through n8n's engine.
 */
import type { IDataObject } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';

export const DAV = 'https://dav.example.test';
export const credentials = {
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
};
export const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });

/** Runs the node with these parameters; `json` is the JSON of its items. */
export async function run(
	node: 'cloudStorageCalendar' | 'cloudStorageContacts',
	parameters: IDataObject,
) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'DAV', type: `${PACKAGE_NAME}.${node}`, parameters: parameters as never },
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DAV') },
		{ credentials: credentials as never },
	);
	return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
}
