/** An HTTP/1.1 answer's status and headers (names in lower case; repeated ones joined, Set-Cookie kept apart). */
export interface ResponseHead {
	status: number;
	headers: Record<string, string | string[]>;
}

/** The answer broke the protocol (RFC 9112), or the connection ended before its body did. */
export class ResponseFormatError extends Error {
	constructor(
		readonly code: 'HPE_INVALID' | 'HPE_HEADER_OVERFLOW' | 'ECONNRESET',
		message: string,
	) {
		super(message);
	}
}

const EMPTY = Buffer.alloc(0);
const LINE_MAX_BYTES = 8 * 1024;

type Framing =
	| { kind: 'length'; remaining: number }
	| { kind: 'chunked'; state: 'size' | 'data' | 'end of data' | 'trailer'; remaining: number }
	| { kind: 'until close' };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Any control character but HTAB (RFC 9110 §5.5): NUL, a bare CR or LF, DEL. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\0-\x08\x0a-\x1f\x7f]/;

const invalid = (cause: string) =>
	new ResponseFormatError('HPE_INVALID', `The answer ${cause}, which HTTP/1.1 forbids (RFC 9112)`);

function parseHeaderLine(line: string): [string, string] {
	if (/^[ \t]/.test(line)) throw invalid('has a folded header line (obs-fold)');
	const colon = line.indexOf(':');
	if (colon < 0) throw invalid('has a header line without a colon');
	const name = line.slice(0, colon);
	if (/[ \t]$/.test(name))
		throw invalid(`has whitespace before the colon of header "${name.trim()}"`);
	if (!TOKEN.test(name)) throw invalid('has a header line whose name is not a token');
	const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
	if (CONTROL.test(value)) throw invalid(`has a control character in header "${name}"`);
	return [name.toLowerCase(), value];
}

function parseHead(text: string): ResponseHead {
	const [statusLine, ...lines] = text.split('\r\n');
	const status = /^HTTP\/1\.[01] ([1-9]\d{2})(?: (.*))?$/.exec(statusLine);
	if (!status || CONTROL.test(status[2] ?? '')) throw invalid('has no HTTP/1.x status line');
	const headers: Record<string, string | string[]> = {};
	for (const line of lines) {
		const [name, value] = parseHeaderLine(line);
		const earlier = headers[name];
		if (name === 'set-cookie') headers[name] = [...((earlier as string[]) ?? []), value];
		else headers[name] = earlier === undefined ? value : `${earlier as string}, ${value}`;
	}
	return { status: Number(status[1]), headers };
}

/**
 * How the body of an answer to a POST ends (RFC 9112 §6.3). Only `chunked` is decoded: this client offers
 * no other transfer coding (§7.4), and an answer that frames its body twice is refused, not guessed at (§6.3
 * calls it a sign of smuggling; Node's and undici's parsers refuse it too).
 */
function framingOf(head: ResponseHead): Framing | undefined {
	const coding = head.headers['transfer-encoding'];
	const length = head.headers['content-length'];
	if (coding !== undefined && length !== undefined)
		throw invalid('has both Transfer-Encoding and Content-Length');
	if (head.status === 204 || head.status === 304) return undefined;
	if (typeof coding === 'string') {
		if (coding.trim().toLowerCase() !== 'chunked')
			throw invalid(`uses a transfer coding the client did not offer ("${coding}")`);
		return { kind: 'chunked', state: 'size', remaining: 0 };
	}
	if (typeof length === 'string') {
		const values = new Set(length.split(',').map((value) => value.trim()));
		const [only] = values;
		if (values.size !== 1 || !/^\d{1,15}$/.test(only))
			throw invalid(`has a conflicting or invalid Content-Length ("${length}")`);
		return Number(only) === 0 ? undefined : { kind: 'length', remaining: Number(only) };
	}
	return { kind: 'until close' };
}

/**
 * Reads an HTTP/1.1 answer as it arrives, read by read. The body comes back as slices of the bytes passed
 * in, never copied, so a caller reading into one reused buffer makes no garbage for the body; only the
 * head and chunk-size lines are copied. Interim (1xx) answers are skipped.
 */
export class ResponseParser {
	head?: ResponseHead;
	/** The whole body has arrived. */
	done = false;
	private framing?: Framing;
	/** Bytes of a head or line that has not ended yet (copied: the caller's buffer is reused). */
	private partial: Buffer = EMPTY;

	constructor(private readonly maxHeadBytes = 64 * 1024) {}

	/** The body bytes in this read, as slices of `bytes`. */
	push(bytes: Buffer): Buffer[] {
		const body: Buffer[] = [];
		let rest = bytes;
		while (rest.length > 0 && !this.done) {
			rest = this.head ? this.readBody(rest, body) : this.readHead(rest);
		}
		return body;
	}

	/** The connection ended: the end of a body that runs until then, otherwise an answer cut short. */
	end(): void {
		if (this.done) return;
		if (this.head && this.framing?.kind === 'until close') {
			this.done = true;
			return;
		}
		throw new ResponseFormatError('ECONNRESET', 'The connection closed before the answer ended');
	}

	private readHead(bytes: Buffer): Buffer {
		const seen = this.partial.length;
		this.partial = Buffer.concat([this.partial, bytes]);
		const end = this.partial.indexOf('\r\n\r\n', Math.max(0, seen - 3));
		if ((end < 0 ? this.partial.length : end) > this.maxHeadBytes)
			throw new ResponseFormatError(
				'HPE_HEADER_OVERFLOW',
				`The answer has headers larger than ${Math.round(this.maxHeadBytes / 1024)} KiB`,
			);
		if (end < 0) return EMPTY;
		const head = parseHead(this.partial.subarray(0, end).toString('latin1'));
		const rest = this.partial.subarray(end + 4);
		this.partial = EMPTY;
		if (head.status >= 100 && head.status < 200) return rest;
		this.head = head;
		this.framing = framingOf(head);
		if (!this.framing) this.done = true;
		return rest;
	}

	private readBody(bytes: Buffer, body: Buffer[]): Buffer {
		const framing = this.framing!;
		if (framing.kind === 'until close') {
			body.push(bytes);
			return EMPTY;
		}
		if (framing.kind === 'length') {
			const take = Math.min(framing.remaining, bytes.length);
			body.push(bytes.subarray(0, take));
			framing.remaining -= take;
			if (framing.remaining === 0) this.done = true;
			return bytes.subarray(take);
		}
		if (framing.state === 'data') {
			const take = Math.min(framing.remaining, bytes.length);
			body.push(bytes.subarray(0, take));
			framing.remaining -= take;
			if (framing.remaining === 0) framing.state = 'end of data';
			return bytes.subarray(take);
		}
		const newline = bytes.indexOf(0x0a);
		if (newline < 0) {
			this.partial = Buffer.concat([this.partial, bytes]);
			if (this.partial.length > LINE_MAX_BYTES) throw invalid('has an overlong chunk line');
			return EMPTY;
		}
		const line = Buffer.concat([this.partial, bytes.subarray(0, newline)])
			.toString('latin1')
			.replace(/\r$/, '');
		this.partial = EMPTY;
		this.readChunkLine(framing, line);
		return bytes.subarray(newline + 1);
	}

	private readChunkLine(framing: Extract<Framing, { kind: 'chunked' }>, line: string): void {
		if (framing.state === 'end of data') {
			if (line !== '') throw invalid('has a chunk longer than announced');
			framing.state = 'size';
		} else if (framing.state === 'trailer') {
			if (line === '') this.done = true;
		} else {
			const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
			if (!size) throw invalid('has an invalid chunk size line');
			framing.remaining = parseInt(size[1], 16);
			framing.state = framing.remaining === 0 ? 'trailer' : 'data';
		}
	}
}
