export const FAULT_KINDS = ['429', '500', '503', 'drop-before', 'drop-after', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
	/** `path` matches a substring of the path or the exact V2 action / V1 script name; both fields must match. */
	match: { path?: string; method?: string };
	fault: FaultKind;
	/** How many matching requests it hits; omitted = every one until cleared. */
	times?: number;
	/** Seconds for a `Retry-After` header on 429; omitted = no header. */
	retryAfter?: number;
	/** For `slow`. */
	delayMs?: number;
}

export interface FaultTarget {
	method: string;
	path: string;
	action: string | null;
}

interface ActiveRule extends FaultRule {
	id: number;
	hits: number;
}

/** Seeded random faults will plug in here: `take` would consult them after the explicit rules. */
export interface RandomFaults {
	rate: number;
	seed: number;
	kinds: FaultKind[];
}

export class Faults {
	private rules: ActiveRule[] = [];
	private nextId = 1;

	/** Validates and appends rules; throws on anything malformed so the control API can answer 400. */
	add(rules: FaultRule | FaultRule[]): FaultRule[] {
		const list = Array.isArray(rules) ? rules : [rules];
		for (const rule of list) validate(rule);
		for (const rule of list) this.rules.push({ ...rule, match: { ...rule.match }, id: this.nextId++, hits: 0 });
		return this.list();
	}

	clear(): void {
		this.rules = [];
	}

	list(): (FaultRule & { id: number; hits: number })[] {
		return this.rules.map((rule) => ({ ...rule }));
	}

	setRandom(_random: RandomFaults | null): never {
		throw new Error('random faults are not implemented yet');
	}

	/** The first rule matching the request, counted as used. */
	take(target: FaultTarget): ActiveRule | undefined {
		const rule = this.rules.find((candidate) => matches(candidate, target));
		if (!rule) return undefined;
		rule.hits++;
		if (rule.times !== undefined && rule.hits >= rule.times) this.rules = this.rules.filter((r) => r !== rule);
		return rule;
	}
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
	const { path, method } = rule.match ?? {};
	if (method && method.toUpperCase() !== target.method.toUpperCase()) return false;
	if (path && !target.path.includes(path) && path !== target.action) return false;
	return true;
}

function validate(rule: FaultRule): void {
	if (!rule || typeof rule !== 'object') throw new Error('a rule must be an object');
	if (!FAULT_KINDS.includes(rule.fault))
		throw new Error(`unknown fault ${String(rule.fault)}; use one of ${FAULT_KINDS.join(', ')}`);
	if (rule.match !== undefined && typeof rule.match !== 'object') throw new Error('match must be an object');
	for (const key of ['times', 'retryAfter', 'delayMs'] as const) {
		const value = rule[key];
		if (value !== undefined && (typeof value !== 'number' || value < 0))
			throw new Error(`${key} must be a non-negative number`);
	}
	if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1)) {
		throw new Error('times must be a positive integer');
	}
	if (rule.fault === 'slow' && rule.delayMs === undefined) throw new Error('slow needs delayMs');
}
