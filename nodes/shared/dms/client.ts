import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	type ApiRequest,
	collectByOffsetTotal,
	joinUrl,
	jsonBody,
	runCredentials,
} from '../transport';
import {
	MAX_PAGE_SIZE,
	SECTION_LABEL,
	type DmsDocument,
	type DocumentPage,
	type FieldDescriptor,
	type Reference,
	type Section,
} from './types';
import { accountInfo } from '../storage/account-info';
import { withOutcome, type WriteOutcome } from '../errors/outcome';
import { markedWriteFailure } from '../errors/write-failure';

export type DmsContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** The DMS accepts only user + access token in the JSON body, which this credential adds. */
export const DMS_CREDENTIAL = 'cloudStorageTokenApi';

type CallOptions = Pick<ApiRequest, 'itemIndex' | 'write'>;

/** One action: `POST {base_url}/api_dvs/<section>/<action>` with a JSON body. */
export async function dmsCall<T>(
	ctx: DmsContext,
	section: Section,
	action: string,
	params: Record<string, unknown> = {},
	options: CallOptions = {},
): Promise<T> {
	return (await dmsWrite<T>(ctx, section, action, params, options)).body;
}

/** As `dmsCall`, also telling a write's outcome: applied, or proven applied by a read after its answer was lost. */
export async function dmsWrite<T>(
	ctx: DmsContext,
	section: Section,
	action: string,
	params: Record<string, unknown> = {},
	options: CallOptions = {},
): Promise<{ body: T; outcome: WriteOutcome }> {
	const credentials = await runCredentials(ctx, DMS_CREDENTIAL, options.itemIndex ?? 0);
	const { body, reconciled } = await apiRequest<T>(ctx, {
		api: 'dms',
		url: joinUrl(String(credentials.baseUrl ?? ''), `api_dvs/${section}/${action}`),
		method: 'POST',
		credential: { type: DMS_CREDENTIAL },
		body: jsonBody({ ...params }),
		...options,
	}).catch((error: unknown) => {
		throw options.write ? markedWriteFailure(error) : error;
	});
	if (body === undefined || body === null || typeof body !== 'object') {
		const error = new NodeApiError(
			ctx.getNode(),
			{ message: `${action} answered without data` },
			{
				message: `The document-management API answered ${action} without data`,
				description: "Check that the Base URL of the credential points at the service's API.",
				itemIndex: options.itemIndex,
			},
		);
		// A 2xx to a write is the service's word that it was applied, whatever its body.
		throw options.write ? withOutcome(error, 'applied') : error;
	}
	return { body, outcome: reconciled ? 'applied-after-lost-answer' : 'applied' };
}

/** Per-run memo: get_fields and get_users answer the same for every item, so each is asked once. */
const memo = new WeakMap<object, Map<string, Promise<unknown>>>();

async function remembered<T>(ctx: DmsContext, key: string, load: () => Promise<T>): Promise<T> {
	let entries = memo.get(ctx);
	if (!entries) memo.set(ctx, (entries = new Map()));
	let pending = entries.get(key) as Promise<T> | undefined;
	if (!pending) {
		pending = load();
		entries.set(key, pending);
		// A failure is not remembered: the next item asks again.
		pending.catch(() => entries!.delete(key));
	}
	return await pending;
}

export async function getFields(
	ctx: DmsContext,
	section: Section,
	itemIndex?: number,
): Promise<FieldDescriptor[]> {
	return await remembered(ctx, `fields:${section}`, async () => {
		const body = await dmsCall<{ fields?: FieldDescriptor[] }>(
			ctx,
			section,
			'get_fields',
			{},
			{ itemIndex },
		);
		return Array.isArray(body.fields) ? body.fields : [];
	});
}

/** Users of a task's project (get_users needs the project for tasks), or of the organisation for other registers. */
export async function getUsers(
	ctx: DmsContext,
	section: Section,
	projectId?: number,
	itemIndex?: number,
): Promise<Reference[]> {
	return await remembered(ctx, `users:${section}:${projectId ?? ''}`, async () => {
		const params = projectId === undefined ? {} : { dvs_project_id: projectId };
		const body = await dmsCall<{ users?: Reference[] }>(ctx, section, 'get_users', params, {
			itemIndex,
		});
		return Array.isArray(body.users) ? body.users : [];
	});
}

/** The HTTP status of a failed call, whichever error type carried it. */
export function statusOf(error: unknown): string | undefined {
	const code = (error as { httpCode?: unknown } | null)?.httpCode;
	return code === undefined || code === null ? undefined : String(code);
}

/** The API's "not found" is 405 (also its answer to a missing section permission): undefined here, other failures pass. */
export async function unless405<T>(pending: Promise<T>): Promise<T | undefined> {
	return await pending.then(
		(value) => value,
		async (error: unknown) => (statusOf(error) === '405' ? undefined : await Promise.reject(error)),
	);
}

/**
 * Whether this user may read a register. The documents demand write permission even for reads, so a user
 * whose group writes tasks only gets 405 from every project action; get_fields has no item to miss, so its
 * 405 can only mean "no permission" (or "section not enabled").
 */
export async function canRead(
	ctx: DmsContext,
	section: Section,
	itemIndex?: number,
): Promise<boolean> {
	return await remembered(
		ctx,
		`readable:${section}`,
		async () => (await unless405(getFields(ctx, section, itemIndex))) !== undefined,
	);
}

export async function getDocument(
	ctx: DmsContext,
	section: Section,
	id: number,
	itemIndex?: number,
): Promise<DmsDocument> {
	const found = await unless405(
		dmsCall<DmsDocument>(ctx, section, 'get_document', { dvs_document_id: id }, { itemIndex }),
	);
	if (found) return found;
	const { one, many } = SECTION_LABEL[section];
	throw new NodeOperationError(ctx.getNode(), `No ${one} with ID ${id} was found`, {
		itemIndex,
		description: `The document-management API answered 405: the ${one} does not exist, or this user's group lacks write permission on ${many} (needed even for reading).`,
	});
}

/**
 * True when a document of the register exists, false on the API's "not found" (405), undefined when this
 * user cannot read the register at all (the check is then left to the service's 400).
 */
export async function documentExists(
	ctx: DmsContext,
	section: Section,
	id: number,
	itemIndex?: number,
): Promise<boolean | undefined> {
	return await remembered(ctx, `exists:${section}:${id}`, async () => {
		const found = await unless405(
			dmsCall(ctx, section, 'get_document', { dvs_document_id: id }, { itemIndex }),
		);
		if (found !== undefined) return true;
		return (await canRead(ctx, section, itemIndex)) ? false : undefined;
	});
}

export interface ListOptions {
	filters?: Record<string, Array<number | string>>;
	/** Undefined: everything. */
	max?: number;
	/** Pages fetched at once after the first one (which gives the total). */
	concurrency?: number;
	itemIndex?: number;
	/** Smaller pages for pickers that show only a few entries. */
	pageSize?: number;
	offset?: number;
}

export async function fetchPage(
	ctx: DmsContext,
	section: Section,
	offset: number,
	limit: number,
	options: ListOptions = {},
): Promise<DocumentPage> {
	// The documents' maximum: a larger limit is refused by the service, so no caller may send one.
	const params: Record<string, unknown> = { limit: Math.min(limit, MAX_PAGE_SIZE), offset };
	if (options.filters && Object.keys(options.filters).length > 0) params.filters = options.filters;
	const body = await dmsCall<DocumentPage>(ctx, section, 'get_documents', params, {
		itemIndex: options.itemIndex,
	});
	return { items: Array.isArray(body.items) ? body.items : [], total: Number(body.total ?? 0) };
}

/**
 * get_documents until offset reaches total, newest first as the API orders. A document seen twice (the
 * list shifts when documents are created while paging) is returned once.
 */
export async function listDocuments(
	ctx: DmsContext,
	section: Section,
	options: ListOptions = {},
): Promise<DmsDocument[]> {
	const items = await collectByOffsetTotal<DmsDocument>(
		async (offset, limit) => await fetchPage(ctx, section, offset, limit, options),
		{
			pageSize: options.pageSize ?? MAX_PAGE_SIZE,
			max: options.max,
			concurrency: options.concurrency,
		},
	);
	const seen = new Set<number>();
	return items.filter(
		(item) => !seen.has(item.dvs_document_id) && (seen.add(item.dvs_document_id), true),
	);
}

/**
 * The id of the credential's user, as the storage authenticator names it (the same id a DMS document's
 * `creator` carries): what tells this credential's documents from other users'. Asked once per node run.
 */
export async function credentialUserId(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const credentials = await runCredentials(ctx, DMS_CREDENTIAL, itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '');
	const { ID } = await accountInfo(
		ctx,
		{ credentialType: DMS_CREDENTIAL, baseUrl, webUrl: String(credentials.webUrl || baseUrl) },
		itemIndex,
	);
	if (ID === undefined || ID === null || String(ID) === '')
		throw new Error('The service did not name the account');
	return String(ID);
}
