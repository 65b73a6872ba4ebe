import type { ApiKind } from './api-kinds';

export interface StatusExplanation {
	/** What happened, short: becomes the error's message. */
	cause: string;
	/** What the user can do about it: becomes the error's description. */
	fix: string;
}

const STORAGE: Record<number, StatusExplanation> = {
	400: {
		cause: 'The service rejected the request as invalid or incomplete (400)',
		fix: 'Check that every required field is filled and that hashes, names and options are valid.',
	},
	401: {
		cause: 'Authentication failed (401)',
		fix: "Check the user name and the password or access token in the credential. Accounts with two-factor authentication must confirm the e-mailed link from the n8n host's IP address, or use a Token credential instead.",
	},
	403: {
		cause: 'Access denied (403): the account lacks rights on this item',
		fix: 'Use the account that owns the item, or ask its owner to share it with the rights this operation needs.',
	},
	// The contract answers missing items with 405; its only 404 is an encryption key not saved yet, so any
	// other 404 means the request did not reach the service's API.
	404: {
		cause: 'Not found (404): nothing answers at this address, or the encryption key does not exist',
		fix: "Check the Base URL in the credential: it must point at the service's API, not at a web page or at n8n itself. For an encryption-key operation, save the key first.",
	},
	405: {
		cause: 'The service refused the operation (405)',
		fix: 'The service answers 405 when the item does not exist (wrong or deleted hash), when the operation is not permitted on it (for example on ROOT, or a move to a folder of another account), or when this account has no access. Check the hash or link and the account.',
	},
	409: {
		cause: 'Conflict (409): the item changed or already exists',
		fix: 'Read the current state and try again.',
	},
	429: {
		cause: 'Rate limit reached (429), still limited after retrying',
		fix: 'Process fewer items per run, add a Wait node, or raise the retry limits in the node options.',
	},
	490: {
		cause: 'Upload refused: the virus scan found a threat (490); the file was not stored',
		fix: 'Check the file for malware before uploading it.',
	},
	491: {
		cause: 'Upload refused: the file name has a double extension (491), such as invoice.pdf.exe',
		fix: 'Give the file a name with a single extension (option "File Name").',
	},
	492: {
		cause: 'Upload refused: the folder size limit is exceeded (492)',
		fix: 'Free space in the folder or upload elsewhere; Free accounts have a 5 GB folder limit.',
	},
	493: {
		cause: "Upload refused: the file is larger than the account's per-file limit (493)",
		fix: 'Per-file limits: Free 5 GB, Personal and Lifetime 10 GB, Pro 20 GB, Business and Enterprise 50 GB.',
	},
	494: {
		cause: 'Partial upload (494): the service did not receive the whole file',
		fix: 'Check timeouts and body-size limits of proxies between n8n and the service, then run again.',
	},
	500: {
		cause: 'The service had an internal error (500)',
		fix: 'Try again later. If this was a write, check whether it was applied before running it again.',
	},
	503: {
		cause: 'The service is unavailable (503)',
		fix: 'Try again later.',
	},
};

const DMS: Record<number, StatusExplanation> = {
	...STORAGE,
	400: {
		cause: 'The document-management API rejected the request (400)',
		fix: 'Check required fields, and that dropdown, user and relation values are ids from Get Fields / Get Users of this organisation.',
	},
	401: {
		cause:
			'Authentication failed (401), or the account has no organisation with document management',
		fix: 'Use a Token credential (the document-management API accepts only user + access token) of a user whose organisation has document management enabled.',
	},
	405: {
		cause: 'The document-management API refused the operation (405)',
		fix: "It answers 405 when the item does not exist, the section is not enabled for the organisation, or the user's group lacks write permission on the section (needed even for reads).",
	},
};

const MCP: Record<number, StatusExplanation> = {
	...STORAGE,
	400: {
		cause:
			'The MCP endpoint rejected the request (400): malformed request or unsupported protocol version',
		fix: 'Choose a protocol version the endpoint supports (2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28).',
	},
	401: {
		cause: 'The MCP endpoint rejected the bearer token (401)',
		fix: 'Check the user id and API token in the Bearer credential (a token of type API or ALL).',
	},
	405: {
		cause: 'The MCP endpoint refused the HTTP method (405)',
		fix: "The node always sends POST, so the address is not the service's MCP endpoint: check the Base URL in the Bearer credential (the service's root address; the node adds /api/mcp).",
	},
	413: {
		cause: 'The MCP request is larger than the endpoint accepts (413)',
		fix: 'The endpoint takes request bodies up to 1 MB; send smaller tool arguments.',
	},
	429: {
		cause:
			'MCP rate limit reached (429), still limited after waiting the time the endpoint asked for',
		fix: 'Search and file reads are limited per token (30 searches, 40 file reads, 90 listings per minute; public docs 120 per minute per IP). Process fewer items per run or add a Wait node.',
	},
};

const DAV: Record<number, StatusExplanation> = {
	400: {
		cause: 'The server rejected the request as malformed (400)',
		fix: 'Check the iCalendar/vCard data and the fields.',
	},
	401: {
		cause: 'The calendar/address-book server rejected the login (401)',
		fix: 'Check the user name and password (or access token) in the credential.',
	},
	403: {
		cause: 'The server refused access (403)',
		fix: "Check that the account may read or write this calendar or address book and that the URL is one of its own collections. Some servers also refuse on an account or IP policy (the service's own server: a two-factor account must first confirm the e-mailed IP confirmation link).",
	},
	404: {
		cause: 'Not found (404)',
		fix: 'The object or collection no longer exists; list the collection again to get current URLs.',
	},
	409: {
		cause: 'Conflict (409): the parent collection is missing or in a conflicting state',
		fix: 'Check the collection URL.',
	},
	412: {
		cause: 'The object changed on the server since it was read (412)',
		fix: 'Read it again to get the current ETag, then re-apply the change.',
	},
	429: STORAGE[429],
	500: STORAGE[500],
	503: { cause: 'The server is unavailable (503), still after retrying', fix: 'Try again later.' },
};

const AI: Record<number, StatusExplanation> = {
	...STORAGE,
	401: {
		cause: 'The AI API rejected the bearer token (401)',
		fix: 'Check the user id and API token in the Bearer credential.',
	},
	400: {
		cause: 'The AI API rejected the request (400)',
		fix: 'Check that the model supports what the request asks for (tools, thinking, images) and that the options and messages are valid.',
	},
	403: {
		cause: 'The AI API refused access (403)',
		fix: "The account or token may not be allowed to use the AI API or this model; check the API key's settings.",
	},
	404: {
		cause: 'Model not found (404)',
		fix: 'Pick one of the offered models or check the model id.',
	},
	413: {
		cause: 'The request is larger than the AI API accepts (413)',
		fix: 'Send fewer or smaller images, or a shorter prompt or conversation.',
	},
	429: {
		cause: 'AI API rate limit reached (429), still limited after retrying',
		fix: 'Process fewer items per run, add a Wait node, or use a smaller model.',
	},
};

const TABLES: Record<ApiKind, Record<number, StatusExplanation>> = {
	v2: STORAGE,
	v1: STORAGE,
	search: STORAGE,
	dms: DMS,
	mcp: MCP,
	dav: DAV,
	ai: AI,
};

/** A 404 answered with a web page: the URL points at a web server (or n8n), not at the API. */
const WRONG_ADDRESS: StatusExplanation = {
	cause: 'Not found (404): the address answered with a web page, not the API',
	fix: "Check the URL in the credential (Base URL, AI URL or DAV URL): it must point at the service's API, not at a web page or at n8n itself.",
};

export function explainStatus(kind: ApiKind, status: number, body = ''): StatusExplanation {
	if (status === 404 && /^\s*</.test(body) && kind !== 'dav') return WRONG_ADDRESS;
	if (status === 404 && /^\s*<(!doctype|html)/i.test(body)) return WRONG_ADDRESS;
	const known = TABLES[kind][status];
	if (known) return known;
	if (status >= 500) return { cause: `The server failed (${status})`, fix: 'Try again later.' };
	return {
		cause: `The request failed with HTTP status ${status}`,
		fix: 'Check the node parameters and the credential.',
	};
}
