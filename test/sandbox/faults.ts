import { takenNames } from './naming.ts';
import { prng } from './prng.ts';

/**
 * `slow` holds the request back before it is handled (a slow service: the write lands late);
 * `slow-answer` handles it at once and holds back only the answer (the write is applied, the client's
 * timeout may expire before it hears so).
 */
export const FAULT_KINDS = [
	'429',
	'500',
	'503',
	'drop-before',
	'drop-after',
	'slow',
	'slow-answer',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
	/** `path` matches a substring of the path or the exact V2 action / V1 script name; both fields must match. */
	match: { path?: string; method?: string };
	fault: FaultKind;
	/** How many matching requests it hits; omitted = every one until cleared. */
	times?: number;
	/** Seconds for a `Retry-After` header on 429; omitted = no header. */
	retryAfter?: number;
	/** For `slow` and `slow-answer`. */
	delayMs?: number;
}

export interface FaultTarget {
	method: string;
	path: string;
	action: string | null;
	/** The request's JSON body, when it has one: lets the fault tallies' second client act on what was sent. */
	json?: unknown;
	/** The names of the files a multipart request carries, for the same purpose. */
	fileNames?: string[];
}

interface ActiveRule extends FaultRule {
	id: number;
	hits: number;
}

/**
 * Seeded random faults, consulted after the explicit rules: each request that reaches `take` (control
 * requests never do) draws from a PRNG seeded with `seed`; with probability `rate` it gets one of `kinds`.
 * The same seed and the same request sequence give the same faults.
 */
export interface RandomFaults {
	/** 0..1 */
	rate: number;
	/** Any integer. */
	seed: number;
	kinds: FaultKind[];
	/** Limit to matching requests, as for rules. */
	match?: { path?: string; method?: string };
	/** Seconds for a `Retry-After` header on 429; omitted = no header. */
	retryAfter?: number;
	/** For `slow` and `slow-answer`; default 100 ms. */
	delayMs?: number;
	/** Relative weight of each kind when one is drawn (default 1 each): rare slow answers among frequent 5xx. */
	weights?: Partial<Record<FaultKind, number>>;
}

export class Faults {
	/**
	 * Added to every answer's `Date` header, not to the stored timestamps: a service whose front end and
	 * storage have different clocks (the fault tallies use ±5 min). 0 = one clock.
	 */
	dateOffsetMs = 0;
	private rules: ActiveRule[] = [];
	private nextId = 1;
	private random: { config: RandomFaults; next: () => number; hits: number } | null = null;

	/** Validates and appends rules; throws on anything malformed so the control API can answer 400. */
	add(rules: FaultRule | FaultRule[]): FaultRule[] {
		const list = Array.isArray(rules) ? rules : [rules];
		for (const rule of list) validate(rule);
		for (const rule of list)
			this.rules.push({ ...rule, match: { ...rule.match }, id: this.nextId++, hits: 0 });
		return this.list();
	}

	/** Removes the rules and the random mode. */
	clear(): void {
		this.rules = [];
		this.random = null;
		this.dateOffsetMs = 0;
		takenNames.style = 'space-paren';
	}

	list(): (FaultRule & { id: number; hits: number })[] {
		return this.rules.map((rule) => ({ ...rule }));
	}

	/** Turns the random mode on (restarting its sequence from the seed) or off with null. */
	setRandom(random: RandomFaults | null): void {
		if (random === null) {
			this.random = null;
			return;
		}
		validateRandom(random);
		const config = {
			...random,
			kinds: [...random.kinds],
			match: { ...random.match },
			...(random.weights ? { weights: { ...random.weights } } : {}),
		};
		this.random = { config, next: prng(random.seed), hits: 0 };
	}

	/** The random mode's settings and how many faults it has produced, or null when off. */
	randomState(): (RandomFaults & { hits: number }) | null {
		return this.random && { ...this.random.config, hits: this.random.hits };
	}

	/** The first rule matching the request, counted as used; else possibly a random fault. */
	take(target: FaultTarget): ActiveRule | undefined {
		const rule = this.rules.find((candidate) => matches(candidate, target));
		if (!rule) return this.takeRandom(target);
		rule.hits++;
		if (rule.times !== undefined && rule.hits >= rule.times)
			this.rules = this.rules.filter((r) => r !== rule);
		return rule;
	}

	private takeRandom(target: FaultTarget): ActiveRule | undefined {
		const random = this.random;
		if (!random || !matches(random.config, target)) return undefined;
		if (random.next() >= random.config.rate) return undefined;
		const { kinds, match, retryAfter, delayMs } = random.config;
		const fault = weightedPick(kinds, random.config.weights ?? {}, random.next());
		random.hits++;
		return {
			id: 0,
			hits: random.hits,
			match: match ?? {},
			fault,
			retryAfter,
			delayMs: delayMs ?? 100,
		};
	}
}

function weightedPick(
	kinds: FaultKind[],
	weights: Partial<Record<FaultKind, number>>,
	draw: number,
): FaultKind {
	const weightOf = (kind: FaultKind) => weights[kind] ?? 1;
	let point = draw * kinds.reduce((sum, kind) => sum + weightOf(kind), 0);
	for (const kind of kinds) {
		point -= weightOf(kind);
		if (point < 0) return kind;
	}
	return kinds[kinds.length - 1];
}

export function validateRandom(random: RandomFaults): void {
	if (!random || typeof random !== 'object') throw new Error('random must be an object');
	if (typeof random.rate !== 'number' || !(random.rate >= 0 && random.rate <= 1)) {
		throw new Error('random.rate must be a number from 0 to 1');
	}
	if (!Number.isInteger(random.seed)) throw new Error('random.seed must be an integer');
	if (
		!Array.isArray(random.kinds) ||
		!random.kinds.length ||
		random.kinds.some((k) => !FAULT_KINDS.includes(k))
	) {
		throw new Error(`random.kinds must be a non-empty list of ${FAULT_KINDS.join(', ')}`);
	}
	for (const key of ['retryAfter', 'delayMs'] as const) {
		const value = random[key];
		if (value !== undefined && (typeof value !== 'number' || value < 0))
			throw new Error(`random.${key} must be a non-negative number`);
	}
	if (random.match !== undefined && typeof random.match !== 'object')
		throw new Error('random.match must be an object');
	if (random.weights !== undefined) {
		if (!random.weights || typeof random.weights !== 'object')
			throw new Error('random.weights must be an object');
		const entries = Object.entries(random.weights);
		if (
			entries.some(
				([kind, weight]) =>
					!FAULT_KINDS.includes(kind as FaultKind) || typeof weight !== 'number' || !(weight >= 0),
			)
		) {
			throw new Error('random.weights maps fault kinds to non-negative numbers');
		}
		if (!random.kinds.some((kind) => (random.weights?.[kind] ?? 1) > 0))
			throw new Error('random.weights leaves no kind to draw');
	}
}

function matches(rule: { match?: FaultRule['match'] }, target: FaultTarget): boolean {
	const { path, method } = rule.match ?? {};
	if (method && method.toUpperCase() !== target.method.toUpperCase()) return false;
	if (path && !target.path.includes(path) && path !== target.action) return false;
	return true;
}

function validate(rule: FaultRule): void {
	if (!rule || typeof rule !== 'object') throw new Error('a rule must be an object');
	if (!FAULT_KINDS.includes(rule.fault))
		throw new Error(`unknown fault ${String(rule.fault)}; use one of ${FAULT_KINDS.join(', ')}`);
	if (rule.match !== undefined && typeof rule.match !== 'object')
		throw new Error('match must be an object');
	for (const key of ['times', 'retryAfter', 'delayMs'] as const) {
		const value = rule[key];
		if (value !== undefined && (typeof value !== 'number' || value < 0))
			throw new Error(`${key} must be a non-negative number`);
	}
	if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1)) {
		throw new Error('times must be a positive integer');
	}
	if ((rule.fault === 'slow' || rule.fault === 'slow-answer') && rule.delayMs === undefined)
		throw new Error(`${rule.fault} needs delayMs`);
}
