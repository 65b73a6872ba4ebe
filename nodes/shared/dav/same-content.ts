/**
 * Whether the object a server holds is the one a client sent: the same content lines in each component,
 * whatever the folding, line endings, trailing blanks or property order (servers re-serialize what they
 * store, RFC 4791 5.3.4 / RFC 6352 6.3.2.3). Lines a server stamps on its own (PRODID, DTSTAMP,
 * LAST-MODIFIED, REV) are left out. Equal text from another client is the same state, so it too counts as
 * equal. Lines are compared per component (its UID and RECURRENCE-ID), not as one bag: a PARTSTAT moved
 * from a series to one of its exceptions is another state.
 */
const SERVER_STAMPED = /^(PRODID|DTSTAMP|LAST-MODIFIED|REV)[;:]/i;

function contentLines(text: string): string[] {
	return text
		.replace(/\r\n|\r/g, '\n')
		.replace(/\n[ \t]/g, '')
		.split('\n')
		.map((line) => line.trimEnd())
		.filter((line) => line !== '' && !SERVER_STAMPED.test(line));
}

/**
 * Each component below the object's root (VEVENT, VTODO, VTIMEZONE…) as its sorted lines, nested ones
 * (VALARM) included; the root's own properties (a vCard's are all its lines) as one more entry.
 */
function components(text: string): string[] {
	const entries: string[] = [];
	const root: string[] = [];
	let depth = 0;
	let current: string[] | undefined;
	for (const line of contentLines(text)) {
		const begin = /^BEGIN:/i.test(line);
		const end = /^END:/i.test(line);
		if (begin) depth++;
		if (depth === 2 && begin) current = [];
		if (current) current.push(line);
		else if (depth <= 1) root.push(line);
		if (end && depth === 2 && current) {
			// Its UID and RECURRENCE-ID lines are in it: a component is matched only by one with the same.
			entries.push([...current].sort().join('\n'));
			current = undefined;
		}
		if (end) depth--;
	}
	entries.push(['ROOT', ...root.sort()].join('\n'));
	return entries.sort();
}

export function sameContent(stored: string, sent: string): boolean {
	const a = components(stored);
	const b = components(sent);
	return a.length === b.length && a.every((entry, i) => entry === b[i]);
}
