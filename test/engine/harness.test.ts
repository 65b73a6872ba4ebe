import { chain, runWorkflow } from './harness';

const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} };

describe('engine harness', () => {
	it('runs a manual trigger into a JSON items node', async () => {
		const result = await runWorkflow({
			nodes: [trigger, { name: 'Items', type: 'engine-test.jsonItems', parameters: { items: '[{"a":1},{"a":2}]' } }],
			connections: chain('Start', 'Items'),
		});
		expect(result.error).toBeUndefined();
		expect(result.nodeOutput('Items').map((item) => item.json)).toEqual([{ a: 1 }, { a: 2 }]);
	});
});
