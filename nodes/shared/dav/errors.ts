import { PackError, type PackErrorDetails } from '../errors/pack-error';

/**
 * Protocol-level failures, free of n8n types; the node layer turns them into NodeApiError/NodeOperationError.
 * HTTP statuses the caller did not accept never reach this layer: the transport raises them.
 */
export class DavError extends PackError {
	constructor(
		message: string,
		description: string,
		readonly status?: number,
		details: Pick<PackErrorDetails, 'kind' | 'data'> = {},
	) {
		super(message, { ...details, description, httpCode: status });
		this.name = 'DavError';
	}
}

/** 412: the object changed since its ETag was read; never retried without a fresh precondition. */
export class DavPreconditionFailed extends DavError {
	constructor(
		readonly url: string,
		/** The object's ETag now, exactly as the server sent it; undefined when it is gone. */
		readonly currentEtag: string | undefined,
		what = 'object',
	) {
		super(
			`The ${what} changed on the server since it was read (412)`,
			currentEtag === undefined
				? `It was deleted on the server. List the collection again.`
				: `Its current ETag is ${currentEtag}. Read it again (Get) and re-apply the change, or turn on "Re-Apply on Conflict" to let the node re-read, re-apply and try once more.`,
			412,
			{ data: { currentEtag: currentEtag ?? null, url } },
		);
		this.name = 'DavPreconditionFailed';
	}
}

/** 412 on Delete: another client changed the object; it was read again and is kept, with its current data. */
export class DavChangedBeforeDelete extends DavError {
	constructor(
		readonly url: string,
		/** The other client's version, as read after the conflict. */
		readonly current: { url: string; etag?: string; data: string },
		what = 'object',
	) {
		super(
			`The ${what} was changed by another client since it was read (412); it was not deleted`,
			`Its current ETag is ${current.etag ?? '(none)'}. Get it to see the change; to delete it anyway, run again with its current ETag, or turn on "Delete Whatever Version Is There" (the output then shows what was deleted).`,
			412,
			{ data: { currentEtag: current.etag ?? null, url, current: current.data } },
		);
		this.name = 'DavChangedBeforeDelete';
	}
}

/** iCalendar/vCard text that ical.js could not parse, or that lacks what the operation needs. */
export class DavDataError extends DavError {
	constructor(message: string, description: string) {
		super(message, description, undefined, { kind: 'input' });
		this.name = 'DavDataError';
	}
}
