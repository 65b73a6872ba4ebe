type Headers = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The byte count a downloaded body must reach to be complete, from how its answer is framed (RFC 9112 §6.3):
 * chunked framing marks its own end, so its Content-Length (which Transfer-Encoding overrides) is never the
 * measure, only a size the caller knows beforehand; a Content-Length is the measure; an answer with neither
 * ends when the connection closes, where a cut cannot be seen, so it is accepted only when the caller knows
 * the size to check it against (`'unframed'` otherwise). NaN: nothing to compare with, the framing checks.
 */
export function expectedBodyBytes(headers: Headers, knownSize?: number): number | 'unframed' {
	const known = knownSize !== undefined && Number.isFinite(knownSize) ? knownSize : undefined;
	if (/\bchunked\s*$/i.test(first(headers['transfer-encoding']) ?? '')) return known ?? Number.NaN;
	// A compressed answer n8n's helper inflated: its Content-Length counts the compressed bytes, and the
	// compression's own end marks where the file ends.
	if (!/^(?:identity)?$/i.test((first(headers['content-encoding']) ?? '').trim()))
		return known ?? Number.NaN;
	const length = first(headers['content-length']);
	// The same length repeated ("5, 5", as the pack's parser joins two equal headers) is that length
	// (RFC 9110 §8.6); differing ones never got past the parser.
	const lengths = new Set(length?.split(',').map((value) => value.trim()));
	const [only] = lengths;
	if (lengths.size === 1 && /^\d+$/.test(only)) return Number(only);
	return known ?? 'unframed';
}
