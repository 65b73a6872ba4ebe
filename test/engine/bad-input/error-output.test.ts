// "On Error: Continue (using error output)": n8n (WorkflowExecute.handleNodeErrorOutput) moves an item to the
// error output only when the item carries the error itself or its json has no key but error/message/details.
// The pack's error items also carry a description, so they must carry the error too.
import { runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';
import { TOKEN } from '../../unit/storage/run-storage';

offlineWithNock();

it('sends a failed item to the error output, with its message and pairing', async () => {
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
				{
					name: 'Storage',
					type: 'n8n-nodes-cloud-storage.cloudStorage',
					parameters: {
						resource: 'file',
						operation: 'get',
						file: { __rl: true, mode: 'id', value: 'ab/cd' },
					},
					onError: 'continueErrorOutput',
				},
			],
			connections: { Start: { main: [[{ node: 'Storage', type: 'main', index: 0 }]] } },
		},
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
	);
	expect(result.nodeOutput('Storage', 0)).toEqual([]);
	const [failed] = result.nodeOutput('Storage', 1);
	expect(failed.json).toMatchObject({
		error: expect.stringMatching(/"ab\/cd" is not a file hash/),
	});
	expect(failed.pairedItem).toEqual({ item: 0 });
});

it('keeps the outcome of a write on the error output, under details (n8n keeps only error, message, details there)', async () => {
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
				{
					name: 'Storage',
					type: 'n8n-nodes-cloud-storage.cloudStorage',
					parameters: {
						resource: 'folder',
						operation: 'delete',
						folder: { __rl: true, mode: 'id', value: 'ROOT' },
					},
					onError: 'continueErrorOutput',
				},
			],
			connections: { Start: { main: [[{ node: 'Storage', type: 'main', index: 0 }]] } },
		},
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
	);
	expect(result.nodeOutput('Storage', 0)).toEqual([]);
	const [failed] = result.nodeOutput('Storage', 1);
	expect(failed.json).toMatchObject({
		error: 'ROOT cannot be deleted',
		details: { description: 'Choose a folder inside ROOT.', outcome: 'not-applied' },
	});
	expect(failed.pairedItem).toEqual({ item: 0 });
});
