// A guard against a wait that would never end, on this process's CPU time instead of the wall clock: a loaded
// machine that holds the process off the CPU does not move it, so it can end only a wait that spins without end
// (every turn of such a wait costs CPU), never one that is merely slow. Jest's per-test limit stays the outer one.

const cpuMs = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
};

/** True once this process has spent `ms` of CPU time since the guard was made. */
export function hangGuard(ms: number): () => boolean {
	const began = cpuMs();
	return () => cpuMs() - began > ms;
}
