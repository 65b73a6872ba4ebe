import type { IExecuteFunctions, IGetNodeParameterOptions, INodeParameters } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

/**
 * Parameters of one node run that cannot differ between its items, read once.
 *
 * n8n resolves a parameter anew for every `getNodeParameter` call (expression pass, schema validation,
 * a fresh set of expression keys), and `getNode()` deep-copies the whole node. For a parameter whose
 * stored value holds no expression (no string starting with "=" anywhere in it) every item gets the same
 * answer, so it is asked for the first item and remembered; any parameter holding an expression is asked
 * for each item, as before. The context object is the key: n8n makes one per node run, so nothing
 * outlives the run (as with the credentials, see run-credentials.ts).
 */
interface Run {
	/** The node's stored parameters, expressions unresolved; n8n does not change them during a run. */
	parameters: INodeParameters;
	values: Map<string, unknown>;
	/** Parameters found to hold an expression: read through n8n for every item. */
	varying: Set<string>;
	/** How each of those was last read (by cache key), so `readAhead` can read it for the next item. */
	reads: Map<string, [name: string, fallback: unknown, options?: IGetNodeParameterOptions]>;
	/** What `readAhead` read for one item, by cache key: each taken once, by that item. */
	ahead?: { itemIndex: number; outcomes: Map<string, { value: unknown } | { error: unknown }> };
}

type ParameterContext = Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>;

const byRun = new WeakMap<object, Run>();

function runOf(ctx: ParameterContext): Run {
	let run = byRun.get(ctx);
	if (!run) {
		run = {
			parameters: ctx.getNode().parameters,
			values: new Map(),
			varying: new Set(),
			reads: new Map(),
		};
		byRun.set(ctx, run);
	}
	return run;
}

/** The stored parameters of this run (one copy of the node per run instead of one per item). */
export function runNodeParameters(ctx: ParameterContext): INodeParameters {
	return runOf(ctx).parameters;
}

export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * Whether the value n8n finds at `name` (a dotted path, as `getNodeParameter` takes it) is the same for
 * every item: nothing on the way to it, nor in it, is an expression. Paths with brackets are not parsed
 * here and count as varying.
 */
function constantAt(parameters: INodeParameters, name: string): boolean {
	if (name.includes('[')) return false;
	let value: unknown = parameters;
	for (const key of name.split('.')) {
		if (typeof value === 'string' && value.startsWith('=')) return false;
		if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return true;
		value = (value as Record<string, unknown>)[key];
	}
	return !holdsExpression(value);
}

function copied(value: unknown): unknown {
	return value !== null && typeof value === 'object' ? deepCopy(value) : value;
}

/** Options that change what n8n returns in a way the cache key covers; any other option is not cached. */
const CACHEABLE_OPTIONS = new Set<keyof IGetNodeParameterOptions>(['extractValue']);

/**
 * `this.getNodeParameter(name, itemIndex, fallback, options)` with the same result for every item, read
 * once per run when the stored value holds no expression. Objects are handed out as copies, so an
 * operation that changes what it got cannot change what the next item gets.
 */
export function runParameter<T = unknown>(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): T {
	const read = ctx.getNodeParameter as (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => unknown;
	const cacheable =
		!options ||
		Object.keys(options).every((key) =>
			CACHEABLE_OPTIONS.has(key as keyof IGetNodeParameterOptions),
		);
	if (!cacheable) return read.call(ctx, name, itemIndex, fallback, options) as T;
	const run = runOf(ctx);
	const key = `${name}\u0000${JSON.stringify(fallback) ?? ''}\u0000${options?.extractValue ? 1 : 0}`;
	if (run.varying.has(name)) {
		const early = run.ahead?.itemIndex === itemIndex ? run.ahead.outcomes.get(key) : undefined;
		if (early) {
			run.ahead!.outcomes.delete(key);
			if ('error' in early) throw early.error;
			return early.value as T;
		}
		run.reads.set(key, [name, fallback, options]);
		return read.call(ctx, name, itemIndex, fallback, options) as T;
	}
	if (run.values.has(key)) return copied(run.values.get(key)) as T;
	// Read through n8n for this item: a value n8n refuses (validation) throws here, for this item, and is
	// not remembered.
	const value = read.call(ctx, name, itemIndex, fallback, options);
	if (constantAt(run.parameters, name)) run.values.set(key, copied(value));
	else {
		run.varying.add(name);
		run.reads.set(key, [name, fallback, options]);
	}
	return value as T;
}

/**
 * Reads for `itemIndex`, ahead of time, every parameter holding an expression that an earlier item read,
 * as it was read: `runParameter` then hands that item n8n's answer (or throws n8n's error) without asking
 * again. The item loop calls it while the item before waits for its answer: resolving n8n's expressions
 * costs about as much per item as a fast service's answer, and so overlaps with it.
 */
export function readAhead(ctx: ParameterContext, itemIndex: number): void {
	const run = byRun.get(ctx);
	if (!run?.reads.size) return;
	const read = ctx.getNodeParameter as (...args: unknown[]) => unknown;
	const outcomes = new Map<string, { value: unknown } | { error: unknown }>();
	for (const [key, [name, fallback, options]] of run.reads) {
		try {
			outcomes.set(key, { value: read.call(ctx, name, itemIndex, fallback, options) });
		} catch (error) {
			outcomes.set(key, { error });
		}
	}
	run.ahead = { itemIndex, outcomes };
}
