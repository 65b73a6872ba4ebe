import { sleep } from 'n8n-workflow';

/**
 * After a write timed out, the service may still be applying it: a first look that finds nothing proves
 * nothing yet. The second look waits as long as the Timeout again (the service's slowness the user allowed
 * for), at most a minute, so an item never waits longer than it could already take.
 */
export const SECOND_LOOK_MAX_MS = 60_000;

export function secondLookDelayMs(timeoutMs: number): number {
	return Math.min(Math.max(0, timeoutMs), SECOND_LOOK_MAX_MS);
}

/** The wait before the second look; an object so a test can replace it instead of racing the clock. */
export const secondLook = {
	wait: async (ms: number): Promise<void> => await sleep(ms),
};
