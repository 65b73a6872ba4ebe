/**
 * Whether the object a server holds is the one a client sent: the same content lines, whatever the
 * folding, line endings, trailing blanks or property order (servers re-serialize what they store, RFC 4791
 * 5.3.4 / RFC 6352 6.3.2.3). Lines a server stamps on its own (PRODID, DTSTAMP, LAST-MODIFIED, REV) are left
 * out. Equal text from another client is the same state, so it too counts as equal.
 */
const SERVER_STAMPED = /^(PRODID|DTSTAMP|LAST-MODIFIED|REV)[;:]/i;

function contentLines(text: string): string[] {
	return text
		.replace(/\r\n|\r/g, '\n')
		.replace(/\n[ \t]/g, '')
		.split('\n')
		.map((line) => line.trimEnd())
		.filter((line) => line !== '' && !SERVER_STAMPED.test(line))
		.sort();
}

export function sameContent(stored: string, sent: string): boolean {
	const a = contentLines(stored);
	const b = contentLines(sent);
	return a.length === b.length && a.every((line, i) => line === b[i]);
}
