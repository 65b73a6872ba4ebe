import { isEmail } from '../esignature.ts';
import { empty, json } from '../http/reply.ts';
import { arrayField } from '../http/request.ts';
import { fileRights } from '../rights.ts';
import type { V2Action } from './v2.ts';

/**
 * `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` or the same with `T`, as a `YYYY-MM-DD HH:MM:SS` bound.
 * A date alone covers its whole day at the upper bound (the filters are inclusive). undefined = invalid.
 */
export function dateBound(raw: string, upper: boolean): string | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(raw.trim());
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s] = match;
	const date = new Date(Date.UTC(+y, +mo - 1, +d, +(h ?? 0), +(mi ?? 0), +(s ?? 0)));
	if (
		date.getUTCMonth() !== +mo - 1 ||
		date.getUTCDate() !== +d ||
		+(h ?? 0) > 23 ||
		+(mi ?? 0) > 59
	)
		return undefined;
	if (+(s ?? 0) > 59) return undefined;
	const time =
		h === undefined
			? upper
				? '23:59:59'
				: '00:00:00'
			: `${h}:${mi}:${s ?? (upper ? '59' : '00')}`;
	return `${y}-${mo}-${d} ${time}`;
}

/** An optional e-mail array: null when absent, 'invalid' when any entry is not an address. */
function emailList(fields: URLSearchParams, name: string): string[] | null | 'invalid' {
	const values = arrayField(fields, name);
	if (values === null) return null;
	const trimmed = values.map((value) => value.trim()).filter(Boolean);
	return trimmed.every(isEmail) ? trimmed : 'invalid';
}

export const v2EsignatureActions: Record<string, V2Action> = {
	/** Records of the file's signatures, oldest first; every failure but a bad request is 405 (no 403 listed). */
	get_esignatures: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('file_hash');
			if (!hash) return empty(400);
			const rawFrom = req.fields.get('from_date');
			const rawTo = req.fields.get('to_date');
			const from = rawFrom ? dateBound(rawFrom, false) : '';
			const to = rawTo ? dateBound(rawTo, true) : '9999-12-31 23:59:59';
			if (from === undefined || to === undefined) return empty(400);
			const file = store.file(hash);
			if (!file || !fileRights(store, file, caller).allow_view) return empty(405);
			const records = store.esign.signatures
				.filter((record) => record.fileId === file.id)
				.filter((record) => record.signing_timestamp >= from && record.signing_timestamp <= to)
				.sort((a, b) => a.signing_timestamp.localeCompare(b.signing_timestamp))
				.map(({ signing_timestamp, signer_name }) => ({
					file_hash: file.hash,
					signing_timestamp,
					signer_name,
				}));
			return json(records);
		},
	},

	/**
	 * Records what would be e-mailed (`GET /__sandbox/outbox`). emails: PHP array (`emails[]=`), at least
	 * one, each a plain address, else 400; the file needs edit rights (else 405).
	 */
	esignature_share: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('file_hash');
			const emails = emailList(req.fields, 'emails');
			const next = emailList(req.fields, 'next_share_emails');
			if (!hash || !emails || emails === 'invalid' || !emails.length || next === 'invalid')
				return empty(400);
			const file = store.file(hash);
			if (!file || !fileRights(store, file, caller).allow_edit) return empty(405);
			const nextShare = next ?? [];
			store.esign.outbox.push({
				at: store.unix(),
				byUserId: caller!.id,
				file_hash: file.hash,
				emails,
				text: req.fields.get('text') || null,
				next_share_emails: nextShare,
			});
			return json({
				status: 'ok',
				sent_emails: emails.join(','),
				next_share_emails: nextShare.join(','),
			});
		},
	},
};
