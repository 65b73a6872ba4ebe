/**
 * n8n's own Retry On Fail (node settings) through n8n's engine against the sandbox: n8n runs the whole node
 * again after it threw, and after it returned an error item at index 0 (Continue On Fail). A write whose
 * answer was lost and that no read can settle (a task comment), or that was applied, is never sent again by
 * such a try (`nodes/shared/node/rerun-guard.ts`); a write that was not applied is.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
import { type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());
beforeEach(() => sandbox.reset());

const TASK = `${PACKAGE_NAME}.cloudStorageDmsTask`;
const { tasks } = DMS_SEED;
const org = () => dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
const comments = () => org().comments.map((comment) => comment.text);
const commentRequests = () =>
	sandbox.requests.list().filter((entry) => entry.action === 'add_comment');

/** Items → DMS Task (Add Comment, one comment per item from `text`), with Retry On Fail: 3 tries, no wait. */
async function comment(texts: string[], extra: Partial<NodeSpec> = {}) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'Items',
			type: 'engine-test.jsonItems',
			parameters: { items: JSON.stringify(texts.map((text) => ({ text }))) },
		},
		{
			name: 'DMS',
			type: TASK,
			parameters: {
				resource: 'task',
				operation: 'addComment',
				documentId: { __rl: true, mode: 'id', value: String(tasks.second) },
				comment: '={{ $json.text }}',
			},
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 0,
			...extra,
		},
	];
	const link = (node: string) => [[{ node, type: 'main' as const, index: 0 }]];
	const result = await runWorkflow(
		{ nodes, connections: { Start: { main: link('Items') }, Items: { main: link('DMS') } } },
		{
			credentials: {
				cloudStorageTokenApi: {
					baseUrl: sandbox.baseUrl,
					webUrl: sandbox.webUrl,
					user: DEMO_ACCOUNT.username,
					accessToken: DEMO_ACCOUNT.token,
				},
			},
		},
	);
	return { ...result, out: result.nodeOutput('DMS') };
}

describe("n8n's Retry On Fail", () => {
	it('does not send a write again whose answer was lost: the error says so after the last try', async () => {
		sandbox.faults.add([{ match: { path: 'add_comment' }, fault: 'drop-after', times: 1 }]);
		const { error } = await comment(['once']);
		expect(error?.message).toMatch(/^The write may have been applied: the comment on task/);
		expect(error?.description).toMatch(/Retry On Fail ran this node again.*not sent again/);
		expect(commentRequests()).toHaveLength(1);
		expect(comments()).toEqual(['once']);
	});

	it('with Continue On Fail, runs the node again for item 0 without re-sending item 1, which was applied', async () => {
		sandbox.faults.add([{ match: { path: 'add_comment' }, fault: 'drop-after', times: 1 }]);
		const { out, error } = await comment(['first', 'second'], { onError: 'continueRegularOutput' });
		expect(error).toBeUndefined();
		expect(out[0].json.error).toMatch(/^The write may have been applied/);
		expect(out[1].json).toMatchObject({ comment: 'second', outcome: 'applied' });
		expect(commentRequests()).toHaveLength(2);
		expect(comments()).toEqual(['first', 'second']);
	});

	it('sends again, on each try, a write the service refused (not applied)', async () => {
		const { error } = await comment(['to a task that is not there'], {
			parameters: {
				resource: 'task',
				operation: 'addComment',
				documentId: { __rl: true, mode: 'id', value: '999999' },
				comment: '={{ $json.text }}',
			},
		});
		expect(error?.message).toMatch(/405/);
		expect(commentRequests()).toHaveLength(3);
	});
});
