/** Runs `work` over `inputs` with at most `limit` at a time, keeping the order of the inputs. */
export async function mapBounded<A, B>(
	inputs: A[],
	limit: number,
	work: (input: A) => Promise<B>,
): Promise<B[]> {
	const out: B[] = new Array(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			out[index] = await work(inputs[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker));
	return out;
}
