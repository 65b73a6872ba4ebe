import type { Store } from './store.ts';

/** Items the info actions answer 405 for although they exist (`world.ts`, issue #35). */
const unavailable = new WeakMap<Store, Set<string>>();

/** From now on the info actions answer 405 for this item, which exists: "resource unavailable" (status 405). */
export function makeUnavailable(store: Store, hash: string): void {
	let set = unavailable.get(store);
	if (!set) unavailable.set(store, (set = new Set()));
	set.add(hash);
}

/** Whether `makeUnavailable` marked the item; `Store.reset` does not clear it, a test's own store does. */
export function isUnavailable(store: Store, hash: string | null): boolean {
	return hash !== null && (unavailable.get(store)?.has(hash) ?? false);
}
