import { PackError } from '../errors/pack-error';

/**
 * The example workflows mark values a user must set with `REPLACE_ME: <what to set>` (`npm start` fills them
 * in for its demo). Such a value is refused before any request: sent as it is, a placeholder reaches the
 * service as a hash or URL and comes back as a misleading 403/404/405.
 */
export const PLACEHOLDER_PREFIX = 'REPLACE_ME';

export function findPlaceholder(
	value: unknown,
	path: string[] = [],
): { path: string[]; what: string } | undefined {
	if (typeof value === 'string') {
		// Only a value that IS a placeholder: a text mentioning one (a sticky note, a prompt) is left alone.
		if (!value.startsWith(PLACEHOLDER_PREFIX)) return undefined;
		const what = value
			.slice(PLACEHOLDER_PREFIX.length)
			.replace(/^[\s:]+/, '')
			.trim();
		return { path, what };
	}
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			const found = findPlaceholder(value[index], [...path, String(index)]);
			if (found) return found;
		}
		return undefined;
	}
	if (value && typeof value === 'object') {
		for (const [key, child] of Object.entries(value)) {
			// A resource locator's `value` belongs to the parameter itself.
			const found = findPlaceholder(
				child,
				key === 'value' || key === '__rl' ? path : [...path, key],
			);
			if (found) return found;
		}
	}
	return undefined;
}

/** Throws an input error naming the parameter and what to set, when a parameter still holds a placeholder. */
export function refusePlaceholders(parameters: unknown, itemIndex?: number): void {
	const found = findPlaceholder(parameters);
	if (found) throw placeholderError(found, itemIndex);
}

/** The input error for a placeholder `findPlaceholder` found. */
export function placeholderError(
	found: { path: string[]; what: string },
	itemIndex?: number,
): PackError {
	const name = found.path.join(' → ') || 'a parameter';
	return new PackError(`"${name}" still holds the example's placeholder`, {
		kind: 'input',
		itemIndex,
		description: `Set "${name}" to ${found.what || 'a real value'}. Nothing was sent to the service.`,
	});
}
