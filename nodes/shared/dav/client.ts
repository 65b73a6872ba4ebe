import { MAY_HAVE_BEEN_APPLIED, withOutcome, type WriteOutcome } from '../errors/outcome';
import { sameContent } from './same-content';
import { DavError, DavPreconditionFailed } from './errors';
import { header, type DavHttp, type DavHttpResponse } from './http';
import { failures, parseMultistatus, type Multistatus } from './multistatus';
import type { QName } from './namespaces';
import { conditionError, writeCondition } from './preconditions';
import { propfindBody } from './requests';

// Refusals of a PUT whose body may name the precondition that failed.
const CONDITION_STATUSES = [403, 409, 412, 413, 415, 422, 507];

const XML = 'application/xml; charset=utf-8';

export interface StoredObject {
	url: string;
	/** Exactly as the server sent it, quotes included. */
	etag?: string;
	data: string;
}

export interface DeleteResult {
	status: number;
	/**
	 * The answer was lost and the repeat found the object gone: deleted, by this request or by another
	 * client's at the same moment; no read can tell which.
	 */
	goneAfterLostAnswer?: true;
}

export interface WriteResult {
	url: string;
	status: number;
	etag?: string;
	/** `applied`, or `applied-after-lost-answer` when a read proved it after the answer was lost. */
	outcome: WriteOutcome;
}

/** Whether iCalendar/vCard text names this UID (a UUID the pack generated, so only its own write can). */
function holdsUid(text: string, uid: string): boolean {
	return text
		.replace(/\r?\n[ \t]/g, '')
		.split(/\r?\n/)
		.some((line) => {
			const value = /^UID(?:;[^:]*)?:(.*)$/i.exec(line)?.[1]?.trim();
			return value === uid || value === `urn:uuid:${uid}`;
		});
}

/**
 * CalDAV/CardDAV requests over the HTTP function the node layer provides. Every multistatus is checked
 * per response and per propstat; every write carries an ETag precondition.
 */
export class DavClient {
	constructor(
		readonly http: DavHttp,
		/** The credential's DAV URL: discovery starts here and every URL must stay on its origin. */
		readonly rootUrl: string,
		/** The kind of object for messages: "event", "contact". */
		readonly objectLabel = 'object',
	) {}

	private multistatus(response: DavHttpResponse, url: string, what: string): Multistatus {
		if (response.status !== 207) {
			throw new DavError(
				`${what} failed: the server answered ${response.status} instead of a multistatus (207)`,
				'Check that the URL points at a CalDAV/CardDAV collection.',
				response.status,
			);
		}
		return parseMultistatus(response.body, url);
	}

	async propfind(
		url: string,
		depth: '0' | '1',
		names: QName[],
		what = 'PROPFIND',
	): Promise<Multistatus> {
		const response = await this.http({
			method: 'PROPFIND',
			url,
			headers: { Depth: depth, 'Content-Type': XML },
			body: propfindBody(names),
			accept: [207],
		});
		return this.multistatus(response, url, what);
	}

	async report(
		url: string,
		depth: '0' | '1',
		body: string,
		what: string,
		accept: number[] = [],
	): Promise<Multistatus | DavHttpResponse> {
		const response = await this.http({
			method: 'REPORT',
			url,
			headers: { Depth: depth, 'Content-Type': XML },
			body,
			accept: [207, ...accept],
		});
		if (response.status !== 207 && accept.includes(response.status)) return response;
		return this.multistatus(response, url, what);
	}

	async get(url: string): Promise<StoredObject> {
		const response = await this.http({
			method: 'GET',
			url,
			headers: { Accept: 'text/calendar, text/vcard, */*;q=0.5' },
		});
		return { url, etag: header(response, 'etag'), data: response.body };
	}

	/** The object, or undefined when it is gone (404/410): deleted by another client since it was listed. */
	async getIfExists(url: string): Promise<StoredObject | undefined> {
		const response = await this.http({
			method: 'GET',
			url,
			headers: { Accept: 'text/calendar, text/vcard, */*;q=0.5' },
			accept: [404, 410],
		});
		return response.status >= 400
			? undefined
			: { url, etag: header(response, 'etag'), data: response.body };
	}

	/** The object's ETag now, or undefined when it is gone: what a 412 error offers. */
	async currentEtag(url: string): Promise<string | undefined> {
		const response = await this.http({ method: 'GET', url, headers: {}, accept: [404, 410] });
		return response.status >= 400 ? undefined : header(response, 'etag');
	}

	/**
	 * PUT with `If-None-Match: *` (create) or `If-Match: <etag>` (update). A lost answer to a create is
	 * reconciled by reading the URL: the object there carries our UID only if our PUT made it.
	 */
	async put(
		url: string,
		data: string,
		contentType: string,
		precondition: { create: true; uid: string } | { etag: string },
	): Promise<WriteResult> {
		const headers: Record<string, string> = { 'Content-Type': contentType };
		if ('create' in precondition) headers['If-None-Match'] = '*';
		else headers['If-Match'] = precondition.etag;
		// Set once an update's answer was lost: a 412 to the repeat may then be this update's own success.
		let updateUncertain = false;
		const response = await this.http({
			method: 'PUT',
			url,
			headers,
			body: data,
			// The body of these names the precondition that failed (RFC 4791 5.3.2.1, RFC 6352 6.3.2.1).
			accept: [207, ...CONDITION_STATUSES],
			write: {
				reconcile:
					'create' in precondition
						? async () => {
								const found = await this.http({
									method: 'GET',
									url,
									headers: {},
									accept: [404, 410],
								});
								return found.status < 300 && holdsUid(found.body, precondition.uid)
									? { etag: header(found, 'etag') }
									: undefined;
							}
						: async () => {
								// The object read settles it; a PUT with If-Match cannot apply twice, so when the old
								// version is still there it may be repeated, and a 412 to that repeat is settled below.
								updateUncertain = true;
								return await this.settleLostUpdate(url, data, precondition.etag);
							},
			},
		});
		if (response.reconciled !== undefined)
			return {
				url,
				status: 'create' in precondition ? 201 : 204,
				etag: (response.reconciled as { etag?: string }).etag,
				outcome: 'applied-after-lost-answer',
			};
		try {
			this.refuseOnCondition(response, url);
		} catch (error) {
			// The server refused the PUT: nothing of it was stored.
			throw withOutcome(error as Error, 'not-applied');
		}
		if (response.status === 412) {
			if ('create' in precondition) return await this.settleCreateConflict(url, precondition.uid);
			if (updateUncertain) return await this.settleRepeatedUpdate(url, data);
			throw withOutcome(
				new DavPreconditionFailed(url, await this.currentEtag(url), this.objectLabel),
				'not-applied',
			);
		}
		// Servers that change the data on store may omit the ETag (RFC 4791 5.3.4); read it back then.
		return {
			url,
			status: response.status,
			etag: header(response, 'etag') ?? (await this.currentEtag(url)),
			outcome: 'applied',
		};
	}

	/**
	 * A create (If-None-Match: *) answered 412: something is at the fresh URL. After a lost answer or a
	 * retried 503 that is our own first attempt, stored: the object there carries the UID only this write
	 * had. Anything else there is another object, and nothing of ours was stored.
	 */
	private async settleCreateConflict(url: string, uid: string): Promise<WriteResult> {
		const found = await this.getIfExists(url);
		if (found && holdsUid(found.data, uid))
			return { url, status: 201, etag: found.etag, outcome: 'applied-after-lost-answer' };
		throw withOutcome(
			new DavError(
				`Another ${this.objectLabel} is stored at ${url} (412)`,
				'Nothing was stored: the URL the node generated is taken by an object with another UID. Run the item again; it picks a new name.',
				412,
			),
			'not-applied',
		);
	}

	/**
	 * An update whose answer was lost, read back: the version it was sent against still there — not applied
	 * (yet: after a timeout the transport looks again, later); what was sent there — applied; anything else
	 * — another client's change, before or after this update, which no read can order: may have been applied.
	 */
	private async settleLostUpdate(
		url: string,
		data: string,
		sentAgainst: string,
	): Promise<{ etag?: string } | undefined> {
		const current = await this.getIfExists(url);
		if (current?.etag === sentAgainst) return undefined;
		if (current && sameContent(current.data, data)) return { etag: current.etag };
		throw this.updateUnsettled(url, current, undefined);
	}

	/**
	 * An update whose answer was lost, repeated with the same If-Match, got 412: the object changed since it
	 * was read. When it now holds what was sent, the first attempt applied; otherwise another client changed
	 * it, before or after this update, and no read can tell which.
	 */
	private async settleRepeatedUpdate(url: string, data: string): Promise<WriteResult> {
		const current = await this.getIfExists(url);
		if (current && sameContent(current.data, data))
			return { url, status: 204, etag: current.etag, outcome: 'applied-after-lost-answer' };
		throw this.updateUnsettled(url, current, 412);
	}

	private updateUnsettled(
		url: string,
		current: StoredObject | undefined,
		status: number | undefined,
	): Error {
		const error = new DavError(
			`${MAY_HAVE_BEEN_APPLIED}: the ${this.objectLabel} update's answer was lost, and the ${this.objectLabel} now differs from what was sent${status ? ` (${status})` : ''}`,
			current
				? `Another client changed it since it was read (current ETag ${current.etag ?? '(none)'}), before or after this update. Get it and check the change before running this item again; the node did not overwrite the other change.`
				: `It was deleted on the server meanwhile. List the collection before running this item again.`,
			status,
			{ data: { currentEtag: current?.etag ?? null, url } },
		);
		return withOutcome(error, 'unknown');
	}

	/**
	 * A write answered with a named condition (a DAV:error body, or a 207 whose inner response failed) is
	 * refused with that condition's meaning; a 207 is never taken for success unless every response in it is 2xx.
	 */
	private refuseOnCondition(response: DavHttpResponse, url: string): void {
		if (response.status < 300 && response.status !== 207) return;
		const condition = writeCondition(response.body, response.status);
		if (condition) throw conditionError(condition, this.objectLabel, url);
		if (response.status === 412) return;
		if (response.status === 207) {
			this.checkInnerStatuses(response, url, 'Storing the object');
			return;
		}
		throw new DavError(
			`The server refused to store the ${this.objectLabel} (${response.status})`,
			response.status === 409
				? 'Nothing was stored. Check the collection URL: the collection may be missing.'
				: 'Nothing was stored. The account may lack write access to this collection.',
			response.status,
		);
	}

	/**
	 * DELETE with If-Match. A lost answer (time-out, 5xx, dropped connection) is settled by repeating it with
	 * the same If-Match, which cannot delete a newer version: 2xx is deleted now; 404/410, or a 412 with
	 * nothing there (RFC 9110 13.1.1: If-Match fails when no current version exists), is gone; a 412 with the
	 * object there is another client's newer version, a conflict like any other.
	 */
	async delete(url: string, etag: string): Promise<DeleteResult> {
		let answerLost = false;
		const response = await this.http({
			method: 'DELETE',
			url,
			headers: { 'If-Match': etag },
			accept: [207, 412, 404, 410],
			write: {
				reconcile: async () => {
					answerLost = true;
					return undefined;
				},
			},
		});
		const gone: DeleteResult = { status: response.status, goneAfterLostAnswer: true };
		if (response.status === 404 || response.status === 410) {
			if (answerLost) return gone;
			throw new DavError(
				`The ${this.objectLabel} does not exist (${response.status})`,
				'It was deleted already, or the URL is wrong. Nothing was deleted.',
				response.status,
			);
		}
		if (response.status === 412) {
			const current = await this.currentEtag(url);
			if (current === undefined && answerLost) return gone;
			throw new DavPreconditionFailed(url, current, this.objectLabel);
		}
		if (response.status === 207) {
			const condition = writeCondition(response.body, 207);
			if (answerLost && condition && (condition.status === 404 || condition.status === 410))
				return gone;
			if (condition) throw conditionError(condition, this.objectLabel, url);
			this.checkInnerStatuses(response, url, 'Delete');
		}
		return { status: response.status };
	}

	/** PROPPATCH/MKCALENDAR/DELETE may answer 207 with an inner 4xx per property or member: that is a failure. */
	checkInnerStatuses(response: DavHttpResponse, url: string, what: string): void {
		if (response.status !== 207) return;
		const failed = failures(parseMultistatus(response.body, url).responses);
		if (failed.length > 0) {
			const list = failed
				.map((entry) => `${entry.property ?? entry.href}: ${entry.status}`)
				.join(', ');
			throw new DavError(
				`${what} was refused by the server (${list})`,
				'The account may lack permission for this collection, or the server does not support changing these properties.',
				failed[0].status,
			);
		}
	}

	async write(
		method: 'PROPPATCH' | 'MKCALENDAR',
		url: string,
		body: string,
		what: string,
	): Promise<number> {
		const response = await this.http({
			method,
			url,
			headers: { 'Content-Type': XML },
			body,
			accept: [207],
			write: {},
		});
		this.checkInnerStatuses(response, url, what);
		return response.status;
	}
}
