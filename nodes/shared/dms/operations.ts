/**
 * The operations both DMS nodes share (Get Fields, Get, Get Many, Create, Update), parameterised by the
 * register. Each node's operation file wraps one of these with its own description.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapBounded } from '../transport';
import { dmsWrite, getDocument, getFields, listDocuments } from './client';
import { convertValues, isEmptyInput, toList } from './convert';
import { buildFilters, type FilterCondition } from './filters';
import { apiLookup, documentId, logUnchecked, withUncheckedNamed } from './lookup';
import { claimed, mayHaveBeenApplied } from '../storage/reconcile';
import { withOutcome } from '../errors/outcome';
import { checkFailed, prepareCreateProof } from './create-proof';
import { SECTION_LABEL, type DmsDocument, type Section } from './types';

const toItems = (records: IDataObject[]): INodeExecutionData[] => records.map((json) => ({ json }));

export async function executeGetFields(
	ctx: IExecuteFunctions,
	section: Section,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems((await getFields(ctx, section, itemIndex)) as unknown as IDataObject[]);
}

export async function executeGet(
	ctx: IExecuteFunctions,
	section: Section,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = documentId(ctx, 'documentId', section, itemIndex);
	return toItems([(await getDocument(ctx, section, id, itemIndex)) as IDataObject]);
}

export async function executeGetMany(
	ctx: IExecuteFunctions,
	section: Section,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	const conditions = ctx.getNodeParameter('filters.conditions', itemIndex, []) as FilterCondition[];
	const options = ctx.getNodeParameter('options', itemIndex, {}) as {
		fullDocuments?: boolean;
		concurrency?: number;
	};
	const concurrency = Math.max(1, Math.min(8, Math.floor(options.concurrency ?? 1)));
	const lookup = apiLookup(ctx, section, itemIndex);
	const filters = await buildFilters(await getFields(ctx, section, itemIndex), conditions, lookup);
	logUnchecked(ctx, lookup.unchecked, itemIndex);
	let documents = await listDocuments(ctx, section, {
		filters,
		max: limit,
		concurrency,
		itemIndex,
	});
	if (options.fullDocuments) {
		documents = await mapBounded(
			documents,
			concurrency,
			async (doc) => await getDocument(ctx, section, doc.dvs_document_id, itemIndex),
		);
	}
	return toItems(documents as IDataObject[]);
}

/** The mapper's values, or with automatic mapping the input item's keys that name declared fields. */
function mappedInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	declared: Set<string>,
): Record<string, unknown> {
	const mode = ctx.getNodeParameter('fields.mappingMode', itemIndex, 'defineBelow') as string;
	if (mode === 'autoMapInputData') {
		const json = ctx.getInputData()[itemIndex]?.json ?? {};
		return Object.fromEntries(Object.entries(json).filter(([key]) => declared.has(key)));
	}
	// n8n would check each value against the choices saved in the mapper's schema, whose values are ids, and refuse
	// a name mapped from an earlier node; the DMS layer checks every value itself, names and ids alike.
	const values = ctx.getNodeParameter('fields.value', itemIndex, {}, { skipValidation: true });
	return { ...((values as IDataObject | null) ?? {}) };
}

/** Reads the result back for a complete output; a failed read must not turn a done write into an error. */
async function readBack(
	ctx: IExecuteFunctions,
	section: Section,
	id: number,
	itemIndex: number,
): Promise<IDataObject> {
	try {
		return (await getDocument(ctx, section, id, itemIndex)) as IDataObject;
	} catch {
		return { dvs_document_id: id };
	}
}

export interface CreateOptions {
	/** Values given by their own parameters (a task's project). */
	fixed?: Record<string, unknown>;
	/** How to find a possibly created document when the answer was lost. */
	checkHint: string;
}

export async function executeCreate(
	ctx: IExecuteFunctions,
	section: Section,
	itemIndex: number,
	options: CreateOptions,
): Promise<INodeExecutionData[]> {
	const schema = await getFields(ctx, section, itemIndex);
	const input = {
		...mappedInput(ctx, itemIndex, new Set(schema.map((field) => field.name))),
		...options.fixed,
	};
	const lookup = apiLookup(ctx, section, itemIndex);
	const params = await convertValues(schema, input, lookup, { section, mode: 'create' });
	logUnchecked(ctx, lookup.unchecked, itemIndex);
	const label = SECTION_LABEL[section].one;
	const proof = await prepareCreateProof(ctx, section, params, schema, itemIndex);
	const { body: created, outcome } = await withUncheckedNamed(
		ctx,
		lookup.unchecked,
		itemIndex,
		async () =>
			await dmsWrite<{ dvs_document_id: number }>(
				ctx,
				section,
				'create_document',
				{ create_params: params },
				{
					itemIndex,
					write: {
						hint: `The ${label} may have been created: the service offers no idempotency key, so the node did not send it again. ${options.checkHint} Run this item again only if it is not there.`,
						reconcile: proof,
					},
				},
			),
	);
	claimed(ctx).add(`dms:${Number(created.dvs_document_id)}`);
	return [
		{
			json: {
				...(await readBack(ctx, section, Number(created.dvs_document_id), itemIndex)),
				outcome,
			},
		},
	];
}

const idsOf = (value: unknown): unknown => {
	if (Array.isArray(value)) return value.map((entry) => idsOf(entry)).sort();
	if (typeof value === 'object' && value !== null && 'id' in value)
		return (value as { id: unknown }).id;
	return value ?? null;
};

/** Whether a document read back already holds every value an update sent. */
export function updateApplied(document: DmsDocument, params: Record<string, unknown>): boolean {
	return Object.entries(params).every(([name, sent]) => {
		if (!(name in document)) return false;
		const now = idsOf(document[name]);
		const wanted = Array.isArray(sent) ? [...sent].sort() : sent;
		return JSON.stringify(now) === JSON.stringify(wanted);
	});
}

export interface UpdateOptions {
	/** Fields that can never change after creation, with the name to use in the error (a task's project). */
	immutable?: Record<string, string>;
}

export async function executeUpdate(
	ctx: IExecuteFunctions,
	section: Section,
	itemIndex: number,
	options: UpdateOptions = {},
): Promise<INodeExecutionData[]> {
	const id = documentId(ctx, 'documentId', section, itemIndex);
	const autoMapped =
		ctx.getNodeParameter('fields.mappingMode', itemIndex, 'defineBelow') === 'autoMapInputData';
	const refuse = (name: string) =>
		new NodeOperationError(
			ctx.getNode(),
			`The ${options.immutable?.[name] ?? name} of a ${SECTION_LABEL[section].one} cannot be changed`,
			{
				itemIndex,
				description: `The service fixes it at creation. Create a new ${SECTION_LABEL[section].one} instead, or remove this field from the update.`,
			},
		);
	const immutableIn = (input: Record<string, unknown>) =>
		Object.keys(options.immutable ?? {}).filter((name) => !isEmptyInput(input[name]));
	// Set on purpose: refused before any request. Carried along by automatic mapping: refused only if it differs.
	if (!autoMapped) {
		const [name] = immutableIn(mappedInput(ctx, itemIndex, new Set()));
		if (name) throw refuse(name);
	}
	const schema = await getFields(ctx, section, itemIndex);
	const input = mappedInput(ctx, itemIndex, new Set(schema.map((field) => field.name)));
	const clear = ctx.getNodeParameter('clearFields', itemIndex, []) as string[];
	const immutable = immutableIn(input);
	// Read first: it proves the document exists and gives the project that user fields depend on.
	const current = await getDocument(ctx, section, id, itemIndex);
	const context = Object.fromEntries(
		Object.entries(current).map(([name, value]) => [name, idsOf(value)]),
	);
	for (const name of immutable) {
		if (String(idsOf(toList(input[name])[0])) !== String(context[name])) throw refuse(name);
		delete input[name];
	}
	const lookup = apiLookup(ctx, section, itemIndex);
	const params = await convertValues(schema, input, lookup, {
		section,
		mode: 'update',
		context,
		clear,
	});
	logUnchecked(ctx, lookup.unchecked, itemIndex);
	if (Object.keys(params).length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Nothing to update: no field has a value', {
			itemIndex,
			description: 'Add at least one field with a value, or list fields under Clear Fields.',
		});
	}
	const { outcome } = await withUncheckedNamed(
		ctx,
		lookup.unchecked,
		itemIndex,
		async () =>
			await dmsWrite(
				ctx,
				section,
				'update_document',
				{ dvs_document_id: id, update_params: params },
				{
					itemIndex,
					write: {
						// The spec: a failed write may have been applied, so look before sending it again.
						reconcile: async ({ timedOut }) => {
							const now = await getDocument(ctx, section, id, itemIndex).catch((error: unknown) => {
								throw checkFailed(ctx, error, SECTION_LABEL[section].one, itemIndex);
							});
							if (updateApplied(now, params)) return { dvs_document_id: id };
							// The service may still be applying it: sent again, it could land after a later change.
							if (timedOut)
								throw withOutcome(
									mayHaveBeenApplied(
										ctx,
										itemIndex,
										`the ${SECTION_LABEL[section].one} update timed out and its values are not there yet: the service may still be applying it`,
										`Get the ${SECTION_LABEL[section].one} ${id} before running this item again; the node did not send it twice.`,
									),
									'unknown',
								);
							return undefined;
						},
					},
				},
			),
	);
	return [{ json: { ...(await readBack(ctx, section, id, itemIndex)), outcome } }];
}
