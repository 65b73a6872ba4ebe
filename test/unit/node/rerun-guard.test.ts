/**
 * The memory that keeps n8n's Retry On Fail from sending a write again (nodes/shared/node/rerun-guard.ts):
 * per execution, node and run index; a later run of the node (a loop) runs its items afresh; bounded.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withOutcome } from '../../../nodes/shared/errors/outcome';
import { guardReruns, rememberedRuns } from '../../../nodes/shared/node/rerun-guard';

const ctx = (executionId: string, runIndex: number, retryOnFail = true) =>
	({
		getNode: () => ({ name: 'Write', retryOnFail }),
		getExecutionId: () => executionId,
		runIndex,
	}) as unknown as IExecuteFunctions;

function counting(result: (call: number) => INodeExecutionData[] | Error) {
	let calls = 0;
	const execute = jest.fn(async () => {
		const next = result(++calls);
		if (next instanceof Error) throw next;
		return next;
	});
	const ops = guardReruns({ task: { write: { description: [], execute } } });
	return { run: (c: IExecuteFunctions, item = 0) => ops.task.write.execute.call(c, item), execute };
}

describe('rerun guard', () => {
	it('returns the applied output on a later try of the same run, without running the write', async () => {
		const { run, execute } = counting(() => [{ json: { outcome: 'applied' } }]);
		await run(ctx('e1', 0));
		expect(await run(ctx('e1', 0))).toEqual([{ json: { outcome: 'applied' } }]);
		expect(execute).toHaveBeenCalledTimes(1);
	});

	it('throws the remembered "unknown" error again, saying why, and runs a not-applied write again', async () => {
		const unknown = withOutcome(new Error('The write may have been applied: lost'), 'unknown');
		const lost = counting(() => unknown);
		await expect(run2(lost.run, 'e2')).rejects.toBe(unknown);
		expect(lost.execute).toHaveBeenCalledTimes(1);
		expect((unknown as Error & { description?: string }).description).toMatch(/not sent again/);

		const refused = counting(() => withOutcome(new Error('refused'), 'not-applied'));
		await expect(run2(refused.run, 'e2b')).rejects.toThrow('refused');
		expect(refused.execute).toHaveBeenCalledTimes(2);

		async function run2(run: (c: IExecuteFunctions) => Promise<unknown>, execution: string) {
			await run(ctx(execution, 0)).catch(() => undefined);
			return await run(ctx(execution, 0));
		}
	});

	it('runs the write again in a later run of the node (a loop), another execution, or without Retry On Fail', async () => {
		const { run, execute } = counting(() => [{ json: { outcome: 'applied' } }]);
		await run(ctx('e3', 0));
		await run(ctx('e3', 1));
		await run(ctx('e4', 0));
		await run(ctx('e5', 0, false));
		await run(ctx('e5', 0, false));
		expect(execute).toHaveBeenCalledTimes(5);
	});

	it('keeps a bounded number of node runs', async () => {
		const { run } = counting(() => [{ json: { outcome: 'applied' } }]);
		for (let i = 0; i < 200; i++) await run(ctx(`bulk-${i}`, 0));
		expect(rememberedRuns()).toBeLessThanOrEqual(64);
	});
});
