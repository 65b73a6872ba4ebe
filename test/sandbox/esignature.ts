/** The spec's E-signature record, kept per file id. */
export interface SignatureRecord {
	fileId: number;
	file_hash: string;
	/** `YYYY-MM-DD HH:MM:SS` (UTC) */
	signing_timestamp: string;
	signer_name: string;
}

/** What `esignature_share` would have e-mailed. */
export interface SigningRequest {
	at: number;
	byUserId: number;
	file_hash: string;
	emails: string[];
	text: string | null;
	next_share_emails: string[];
}

export class EsignatureBook {
	signatures: SignatureRecord[] = [];
	outbox: SigningRequest[] = [];

	clear(): void {
		this.signatures = [];
		this.outbox = [];
	}
}

/** A deliberately plain address check: something@domain.tld, no spaces, one @. */
export function isEmail(value: string): boolean {
	return /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]{2,}$/.test(value);
}
