// eslint-disable-next-line no-control-regex -- control characters are exactly what a name must not keep
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** Trims, drops control characters and turns path separators into `_`; returns '' when nothing usable is left. */
export function normalizeName(raw: string): string {
	return raw.replace(CONTROL_CHARACTERS, '').replace(/[/\\]/g, '_').trim();
}

export const MAX_NAME_LENGTH = 255;

function splitExtension(name: string): [string, string] {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/**
 * How a taken name is told apart. The documents say only "a suffix such as (1)": ` (1)` is what the service
 * answers today; the fault tallies also try the other plausible styles (`Faults.clear()` sets it back).
 */
export type TakenNameStyle = 'space-paren' | 'paren' | 'underscore';
export const takenNames: { style: TakenNameStyle } = { style: 'space-paren' };

const SUFFIX: Record<TakenNameStyle, (n: number) => string> = {
	'space-paren': (n) => ` (${n})`,
	paren: (n) => `(${n})`,
	underscore: (n) => `_${n}`,
};

/**
 * Sibling names collide case-insensitively (as in a MySQL default collation); the first free of
 * `name`, `name (1)`, `name (2)`… wins (or the style `takenNames` sets), and for files the suffix goes
 * before the extension.
 */
export function uniqueName(desired: string, siblings: Iterable<string>, isFile: boolean): string {
	const taken = new Set([...siblings].map((name) => name.toLowerCase()));
	if (!taken.has(desired.toLowerCase())) return desired;
	const [stem, extension] = isFile ? splitExtension(desired) : [desired, ''];
	for (let n = 1; ; n++) {
		const candidate = `${stem}${SUFFIX[takenNames.style](n)}${extension}`;
		if (!taken.has(candidate.toLowerCase())) return candidate;
	}
}

const DANGEROUS = new Set([
	'exe',
	'bat',
	'cmd',
	'com',
	'scr',
	'pif',
	'vbs',
	'vbe',
	'js',
	'jse',
	'wsf',
	'msi',
	'jar',
	'ps1',
	'hta',
	'cpl',
	'lnk',
]);
const DECOY = new Set([
	'pdf',
	'doc',
	'docx',
	'xls',
	'xlsx',
	'ppt',
	'pptx',
	'txt',
	'rtf',
	'odt',
	'csv',
	'jpg',
	'jpeg',
	'png',
	'gif',
	'zip',
	'mp3',
	'mp4',
	'avi',
	'mov',
]);

/** The 491 rule: a harmless-looking extension followed by an executable one, e.g. `invoice.pdf.exe`. */
export function hasDoubleExtension(name: string): boolean {
	const parts = name.toLowerCase().split('.');
	if (parts.length < 3) return false;
	return DANGEROUS.has(parts[parts.length - 1]) && DECOY.has(parts[parts.length - 2]);
}

const MIME: Record<string, string> = {
	txt: 'text/plain',
	csv: 'text/csv',
	html: 'text/html',
	htm: 'text/html',
	json: 'application/json',
	xml: 'application/xml',
	pdf: 'application/pdf',
	zip: 'application/zip',
	gz: 'application/gzip',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	odt: 'application/vnd.oasis.opendocument.text',
	edoc: 'application/vnd.etsi.asic-e+zip',
	asice: 'application/vnd.etsi.asic-e+zip',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	gif: 'image/gif',
	webp: 'image/webp',
	svg: 'image/svg+xml',
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	mp4: 'video/mp4',
	mov: 'video/quicktime',
	ics: 'text/calendar',
	vcf: 'text/vcard',
};

/** The content type comes from the file name, never from what the client declared. */
export function mimeFromName(name: string): string {
	const [, extension] = splitExtension(name);
	return MIME[extension.slice(1).toLowerCase()] ?? 'application/octet-stream';
}
