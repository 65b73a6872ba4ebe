import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { runCredentials } from '../../../nodes/shared/transport/run-credentials';

function reader(results: Array<ICredentialDataDecryptedObject | Error>) {
	const calls: Array<[string, number | undefined]> = [];
	return {
		calls,
		getCredentials: async (type: string, itemIndex?: number) => {
			calls.push([type, itemIndex]);
			const next = results.shift() ?? { token: 'same' };
			if (next instanceof Error) throw next;
			return next;
		},
	};
}

describe('credentials read once per node run', () => {
	it('asks n8n once for every item of one run, and once per credential type', async () => {
		const ctx = reader([{ baseUrl: 'https://a.example' }, { davUrl: 'https://dav.example' }]);
		const first = await runCredentials(ctx, 'tokenApi', 0);
		const again = await Promise.all(
			[1, 2, 3].map(async (index) => await runCredentials(ctx, 'tokenApi', index)),
		);
		const dav = await runCredentials(ctx, 'davApi', 4);
		expect(again.every((data) => data === first)).toBe(true);
		expect(dav).toEqual({ davUrl: 'https://dav.example' });
		expect(ctx.calls).toEqual([
			['tokenApi', 0],
			['davApi', 4],
		]);
	});

	it('keeps runs apart: another context (the next execution) reads again', async () => {
		const one = reader([{ token: 'one' }]);
		const two = reader([{ token: 'two' }]);
		expect(await runCredentials(one, 'tokenApi')).toEqual({ token: 'one' });
		expect(await runCredentials(two, 'tokenApi')).toEqual({ token: 'two' });
	});

	it('does not remember a failed read: the next item asks again', async () => {
		const ctx = reader([new Error('database busy'), { token: 'ok' }]);
		await expect(runCredentials(ctx, 'tokenApi', 0)).rejects.toThrow('database busy');
		expect(await runCredentials(ctx, 'tokenApi', 1)).toEqual({ token: 'ok' });
		expect(ctx.calls).toHaveLength(2);
	});
});
