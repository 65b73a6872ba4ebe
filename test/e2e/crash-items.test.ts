/**
 * How the crash harness reads a trigger's items from an execution n8n's crash recovery rewrote
 * (ExecutionRecoveryService in n8n 2.41.1): a trigger node the event log shows finished, but whose run data was
 * never saved, gets one artificial item; one that only started gets a run without data. Either way the poll's
 * items are those n8n stored with the execution (its start data). The artificial item is n8n's own constant.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { triggerItems } from './harness/crash';

const { ARTIFICIAL_TASK_DATA } = createRequire(__filename)(
	join(__dirname, 'runtime/node_modules/n8n/dist/constants.js'),
) as { ARTIFICIAL_TASK_DATA: { main: Array<Array<Record<string, unknown>>> } };

const polled = [
	{ json: { eventId: 'a:1', name: 'a.txt' } },
	{ json: { eventId: 'b:1', name: 'b.txt' } },
];
const startData = {
	executionData: { nodeExecutionStack: [{ node: { name: 'Trigger' }, data: { main: [polled] } }] },
};

describe('crash harness: the trigger items of a recovered execution', () => {
	it('a finished trigger whose run data was lost: the start data, not the artificial item', () => {
		const data = {
			...startData,
			resultData: {
				runData: { Trigger: [{ executionStatus: 'success', data: ARTIFICIAL_TASK_DATA }] },
			},
		};
		expect(ARTIFICIAL_TASK_DATA.main[0][0]).toMatchObject({
			json: { isArtificialRecoveredEventItem: true },
		});
		expect(triggerItems(data, 'Trigger')).toEqual(polled);
	});

	it('a trigger that only started: the start data', () => {
		const data = {
			...startData,
			resultData: { runData: { Trigger: [{ executionStatus: 'crashed' }] } },
		};
		expect(triggerItems(data, 'Trigger')).toEqual(polled);
	});

	it('a trigger that ran: its output', () => {
		const data = {
			...startData,
			resultData: { runData: { Trigger: [{ data: { main: [polled.slice(0, 1)] } }] } },
		};
		expect(triggerItems(data, 'Trigger')).toEqual(polled.slice(0, 1));
	});
});
