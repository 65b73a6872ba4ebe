/**
 * Checks of the e-signature actions' inputs, done before any request. No n8n imports: problems are
 * raised as EsignatureInputError (a PackError), which the router turns into n8n's input error.
 */
import { PackError } from '../errors/pack-error';

/** Bad input found before any request: a PackError of kind 'input', its hint the fix. */
export class EsignatureInputError extends PackError {
	constructor(message: string, hint: string) {
		super(message, { kind: 'input', description: hint });
	}
}

const EMAIL =
	/^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\.]+(?:\.[^\s@,;<>"()[\]\\.]+)*\.[^\s@,;<>"()[\]\\.\d]{2,}$/;

export function isEmailAddress(value: string): boolean {
	return EMAIL.test(value);
}

/**
 * E-mail addresses from a text (separated by commas, semicolons or line breaks) or a list from an
 * expression; each checked, duplicates dropped (case-insensitively), order kept.
 */
export function parseEmails(raw: unknown, field: string, required: boolean): string[] {
	const parts = (
		Array.isArray(raw)
			? raw
			: typeof raw === 'string'
				? raw.split(/[,;\n]/)
				: raw == null
					? []
					: [raw]
	)
		.map((entry) => String(entry ?? '').trim())
		.filter(Boolean);
	if (!parts.length && required) {
		throw new EsignatureInputError(
			`${field}: no e-mail address given`,
			'Enter at least one address, e.g. signer@example.com; separate several with commas.',
		);
	}
	const seen = new Set<string>();
	const result: string[] = [];
	for (const address of parts) {
		if (!isEmailAddress(address)) {
			throw new EsignatureInputError(
				`${field}: "${address.slice(0, 100)}" is not an e-mail address`,
				'Use plain addresses like name@example.com, separated by commas.',
			);
		}
		if (!seen.has(address.toLowerCase())) {
			seen.add(address.toLowerCase());
			result.push(address);
		}
	}
	return result;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A from/to date for get_esignatures as the service reads it: `YYYY-MM-DD` (the whole day, the filters
 * being inclusive) or `YYYY-MM-DD HH:MM[:SS]`. A time-zone suffix is refused rather than guessed, because
 * the service compares against its own signing timestamps.
 */
export function signatureDate(raw: unknown, field: string): string | undefined {
	const text = String(raw ?? '').trim();
	if (!text) return undefined;
	const match = DATE.exec(text);
	const hint =
		'Use YYYY-MM-DD (the whole day) or YYYY-MM-DD HH:MM:SS, without a time zone, e.g. {{ $now.minus(7, "days").toFormat("yyyy-MM-dd") }}.';
	if (!match) throw new EsignatureInputError(`${field} "${text.slice(0, 40)}" is not a date`, hint);
	const [, y, mo, d, h, mi, s] = match;
	const date = new Date(Date.UTC(+y, +mo - 1, +d));
	const validTime = h === undefined || (+h <= 23 && +mi <= 59 && +(s ?? 0) <= 59);
	if (
		date.getUTCFullYear() !== +y ||
		date.getUTCMonth() !== +mo - 1 ||
		date.getUTCDate() !== +d ||
		!validTime
	) {
		throw new EsignatureInputError(`${field} "${text}" is not a real date or time`, hint);
	}
	return h === undefined ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${h}:${mi}:${s ?? '00'}`;
}

/** Both bounds checked, and the range the right way round (compared at their earliest instants). */
export function signatureDateRange(from: unknown, to: unknown): { from?: string; to?: string } {
	const start = signatureDate(from, 'From Date');
	const end = signatureDate(to, 'To Date');
	if (start && end && start.slice(0, 10) > end.slice(0, 10)) {
		throw new EsignatureInputError(
			'From Date is after To Date',
			`Nothing can match ${start} to ${end}: swap the dates.`,
		);
	}
	if (start && end && start.length > 10 && end.length > 10 && start > end) {
		throw new EsignatureInputError(
			'From Date is after To Date',
			`Nothing can match ${start} to ${end}: swap the dates.`,
		);
	}
	return { from: start, to: end };
}

/** esignature_share answers comma-separated lists; outputs carry arrays. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map(String).filter(Boolean);
	return String(value ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}
