/**
 * Runs `work` over `inputs` with at most `limit` at a time, keeping the order of the inputs. After a
 * failure no new input starts, and those in flight settle before the failure of the lowest input index
 * is thrown: no request, and no retry, outlives the call that failed.
 */
export async function mapBounded<A, B>(
	inputs: A[],
	limit: number,
	work: (input: A, index: number) => Promise<B>,
): Promise<B[]> {
	const out: B[] = new Array(inputs.length);
	const failures: Array<{ index: number; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (failures.length === 0 && next < inputs.length) {
			const index = next++;
			try {
				out[index] = await work(inputs[index], index);
			} catch (error) {
				failures.push({ index, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker));
	if (failures.length) throw failures.sort((a, b) => a.index - b.index)[0].error;
	return out;
}
