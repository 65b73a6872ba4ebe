/**
 * New-signature detection for the e-signature trigger. Plain data in, plain data out (no n8n imports).
 *
 * Per watched file the state keeps the newest signing time seen and the signers recorded at exactly that
 * time (a name once per record), so the next poll asks get_esignatures `from_date` that time (an inclusive
 * filter) and tells the records it has already reported from new ones. The same signer may sign twice:
 * records are distinct by file, signer and time, and two identical records count twice.
 */

export interface SignatureRecord {
	file_hash: string;
	signing_timestamp: string;
	signer_name: string;
}

/** `t`: newest signing time seen; `s`: signer names recorded at `t`, one entry per record. */
export interface FileSignatures {
	t: string;
	s: string[];
}

export interface EsignTriggerState {
	v: 1;
	/** What is watched: any difference starts afresh. */
	scope: string;
	/** File hash → what was seen; null: the file had no signature yet. */
	files: Record<string, FileSignatures | null>;
}

/** The `from_date` for a file's next request; undefined (every signature) for a file not seen before. */
export function fromDate(
	state: EsignTriggerState | undefined,
	fileHash: string,
): string | undefined {
	return state?.files[fileHash]?.t;
}

const byTime = (a: SignatureRecord, b: SignatureRecord) =>
	a.signing_timestamp < b.signing_timestamp
		? -1
		: a.signing_timestamp > b.signing_timestamp
			? 1
			: a.signer_name < b.signer_name
				? -1
				: a.signer_name > b.signer_name
					? 1
					: 0;

/**
 * The records not reported before, and what to remember. `previous` undefined: a file not watched before,
 * whose every signature is new; null: a watched file that had none.
 */
export function newSignatures(
	previous: FileSignatures | null | undefined,
	records: SignatureRecord[],
): { fresh: SignatureRecord[]; next: FileSignatures | null } {
	const sorted = [...records].sort(byTime);
	const pending = new Map<string, number>();
	for (const name of previous?.s ?? []) pending.set(name, (pending.get(name) ?? 0) + 1);
	const fresh: SignatureRecord[] = [];
	for (const record of sorted) {
		if (previous && record.signing_timestamp < previous.t) continue;
		if (previous && record.signing_timestamp === previous.t) {
			const left = pending.get(record.signer_name) ?? 0;
			if (left > 0) {
				pending.set(record.signer_name, left - 1);
				continue;
			}
		}
		fresh.push(record);
	}
	if (!sorted.length) return { fresh, next: previous ?? null };
	const newest = sorted[sorted.length - 1].signing_timestamp;
	if (previous && newest < previous.t) return { fresh, next: previous };
	return {
		fresh,
		next: {
			t: newest,
			s: sorted
				.filter((record) => record.signing_timestamp === newest)
				.map((record) => record.signer_name),
		},
	};
}

/**
 * Which of the identical records (file, signer, time) each fresh record is, counting those already reported:
 * the second of two identical signatures is told from the first on every poll that sees it.
 */
export function signatureOrdinals(
	previous: FileSignatures | null | undefined,
	fresh: SignatureRecord[],
): number[] {
	const seen = new Map<string, number>();
	return fresh.map((record) => {
		const key = JSON.stringify([record.file_hash, record.signing_timestamp, record.signer_name]);
		let count = seen.get(key);
		if (count === undefined)
			count =
				previous?.t === record.signing_timestamp
					? previous.s.filter((name) => name === record.signer_name).length
					: 0;
		seen.set(key, count + 1);
		return count;
	});
}

export function isUsableState(value: unknown, scope: string): value is EsignTriggerState {
	if (!value || typeof value !== 'object') return false;
	const state = value as Partial<EsignTriggerState>;
	return state.v === 1 && state.scope === scope && !!state.files && typeof state.files === 'object';
}

/** Output order: by signing time, then file, then signer. */
export function orderSignatures<T extends SignatureRecord>(records: T[]): T[] {
	return [...records].sort(
		(a, b) => byTime(a, b) || (a.file_hash < b.file_hash ? -1 : a.file_hash > b.file_hash ? 1 : 0),
	);
}

/** Plausible records only: the documents describe three strings; anything else is left out, not guessed at. */
export function recordsOf(body: unknown, fileHash: string): SignatureRecord[] {
	if (!Array.isArray(body)) return [];
	return body
		.filter(
			(entry): entry is Record<string, unknown> =>
				!!entry &&
				typeof entry === 'object' &&
				typeof (entry as SignatureRecord).signing_timestamp === 'string',
		)
		.map((entry) => ({
			file_hash: fileHash,
			signing_timestamp: String(entry.signing_timestamp),
			signer_name: String(entry.signer_name ?? ''),
		}));
}
