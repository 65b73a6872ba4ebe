import { randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Hashes are opaque and of varying length, so clients that assume a fixed length break here as they would live. */
export function randomHash(minLength = 6, maxLength = 40): string {
	const length = randomInt(minLength, maxLength + 1);
	let hash = '';
	for (let i = 0; i < length; i++) hash += BASE62[randomInt(BASE62.length)];
	return hash;
}

/** New capability keys: 32 lowercase hex characters. */
export function randomKey(): string {
	return randomBytes(16).toString('hex');
}

/** PHP-style session id. */
export function randomSessionId(): string {
	const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
	let id = '';
	for (let i = 0; i < 26; i++) id += alphabet[randomInt(alphabet.length)];
	return id;
}

export function unixSeconds(ms: number): number {
	return Math.floor(ms / 1000);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the legacy scripts' datetime format. */
export function sqlDateTime(unix: number): string {
	return new Date(unix * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

export function isoDate(unix: number): string {
	return new Date(unix * 1000).toISOString().slice(0, 10);
}
