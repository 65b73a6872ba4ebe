/**
 * mulberry32: a small, fast, deterministic PRNG, which is all a fault schedule or a test's churn needs.
 * One copy for the sandbox's random faults, the fault proxy of the end-to-end tests and the engine tests.
 */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
