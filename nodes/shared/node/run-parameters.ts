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
}

type ParameterContext = Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>;

const byRun = new WeakMap<object, Run>();

function runOf(ctx: ParameterContext): Run {
	let run = byRun.get(ctx);
	if (!run) {
		run = { parameters: ctx.getNode().parameters, values: new Map(), varying: new Set() };
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
	if (run.varying.has(name)) return read.call(ctx, name, itemIndex, fallback, options) as T;
	const key = `${name}\u0000${JSON.stringify(fallback) ?? ''}\u0000${options?.extractValue ? 1 : 0}`;
	if (run.values.has(key)) return copied(run.values.get(key)) as T;
	// Read through n8n for this item: a value n8n refuses (validation) throws here, for this item, and is
	// not remembered.
	const value = read.call(ctx, name, itemIndex, fallback, options);
	if (constantAt(run.parameters, name)) run.values.set(key, copied(value));
	else run.varying.add(name);
	return value as T;
}
