/**
 * mapBounded: at most N at a time, in input order, and nothing outlives a failure: no input starts after
 * it, and the call settles only once those in flight have (a failed poll must not go on asking).
 */
import { mapBounded } from '../../../nodes/shared/transport/bounded';

function deferred<T>() {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
	return { promise, resolve, reject };
}
const turns = async (count = 5) => {
	for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('mapBounded', () => {
	it('keeps at most N in flight and the order of the inputs', async () => {
		let inFlight = 0;
		let peak = 0;
		const out = await mapBounded([5, 1, 4, 2, 3], 2, async (value, index) => {
			peak = Math.max(peak, ++inFlight);
			for (let i = 0; i < value; i++) await turns(1);
			inFlight--;
			return `${index}:${value}`;
		});
		expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
		expect(peak).toBe(2);
	});

	it('starts nothing after a failure and settles only when those in flight have', async () => {
		const pending = [0, 1, 2, 3, 4].map(() => deferred<string>());
		const started: number[] = [];
		let settled = false;
		const call = mapBounded(pending, 2, async (entry, index) => {
			started.push(index);
			return await entry.promise;
		}).finally(() => (settled = true));
		const outcome = call.then(
			() => 'resolved',
			(error: Error) => error.message,
		);
		pending[0].reject(new Error('item 0 failed'));
		await turns();
		expect(started).toEqual([0, 1]);
		expect(settled).toBe(false);
		pending[1].resolve('late');
		expect(await outcome).toBe('item 0 failed');
		expect(started).toEqual([0, 1]);
	});

	it('throws the failure of the lowest input index when several fail', async () => {
		const pending = [0, 1].map(() => deferred<string>());
		const outcome = mapBounded(pending, 2, async (entry) => await entry.promise).catch(
			(error: Error) => error.message,
		);
		pending[1].reject(new Error('second'));
		await turns();
		pending[0].reject(new Error('first'));
		expect(await outcome).toBe('first');
	});
});
