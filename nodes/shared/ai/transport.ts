import type { Readable } from 'node:stream';
import type { IExecuteFunctions, ILoadOptionsFunctions, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, displayUrl, joinUrl, jsonBody, runCredentials } from '../transport';
import { PackError, packErrorOf } from '../errors/pack-error';
import { parseModelListing, type ListedModel } from './models';
import { readNdjson } from './ndjson';
import { AnswerAccumulator, resultOfAnswer, type AiResult } from './protocol';

export type AiContext = IExecuteFunctions | ISupplyDataFunctions;

export const BEARER_CREDENTIAL = 'cloudStorageBearerApi';

export type AiPath = 'api/generate' | 'api/chat';

export interface AiCallOptions {
	itemIndex?: number;
	timeoutMs?: number;
}

/** `{ai_url}` from the Bearer credential; the AI API lives apart from the storage API. */
export async function aiUrl(
	ctx: AiContext | ILoadOptionsFunctions,
	itemIndex = 0,
): Promise<string> {
	const credentials = await runCredentials(ctx, BEARER_CREDENTIAL, itemIndex);
	const url = String(credentials.aiUrl ?? '').trim();
	if (!url) {
		throw new NodeOperationError(ctx.getNode(), 'The Bearer credential has no AI URL', {
			itemIndex,
			description:
				'Open the Cloud Storage Bearer API credential and fill in "AI URL" ({ai_url} of the service).',
		});
	}
	return url;
}

/**
 * What failed while the answer arrived: the errors that already name cause and fix (the transport's, the
 * protocol's) pass; anything else (a reset connection mid-stream) is worded as a broken stream.
 */
function answerFailure(error: unknown): unknown {
	if (error instanceof NodeApiError || error instanceof NodeOperationError || packErrorOf(error))
		return error;
	const cause = (error as Error)?.message ?? String(error);
	return new PackError(
		'The answer stream broke off before the model finished; the partial answer was discarded',
		{
			description: `The connection to the AI API failed while the answer arrived (${cause.slice(0, 120)}). Run the item again.`,
		},
	);
}

/** Sends a generate or chat request; the answer is always JSON or a newline-delimited stream of JSON. */
async function send(
	ctx: AiContext,
	path: AiPath,
	body: Record<string, unknown>,
	options: AiCallOptions,
) {
	const base = await aiUrl(ctx, options.itemIndex);
	return await apiRequest<Readable | unknown>(ctx, {
		api: 'ai',
		url: joinUrl(base, path),
		method: 'POST',
		credential: { type: BEARER_CREDENTIAL },
		body: jsonBody(body),
		headers: { accept: body.stream ? 'application/x-ndjson' : 'application/json' },
		answer: { as: body.stream ? 'stream' : 'json' },
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs,
	});
}

/** The lines of a streamed answer, read as they arrive. */
export async function* streamLines(
	ctx: AiContext,
	path: AiPath,
	body: Record<string, unknown>,
	options: AiCallOptions = {},
): AsyncGenerator<unknown> {
	const response = await send(ctx, path, { ...body, stream: true }, options);
	const stream = response.body as Readable;
	try {
		yield* readNdjson(stream);
	} catch (error) {
		throw answerFailure(error);
	} finally {
		stream.destroy();
	}
}

/** One complete answer: streamed to its final line when `body.stream` is true, otherwise a single JSON body. */
export async function callAi(
	ctx: AiContext,
	path: AiPath,
	body: Record<string, unknown>,
	options: AiCallOptions = {},
): Promise<AiResult> {
	try {
		if (!body.stream) return resultOfAnswer((await send(ctx, path, body, options)).body);
		const accumulator = new AnswerAccumulator();
		for await (const line of streamLines(ctx, path, body, options)) accumulator.add(line);
		return accumulator.finish();
	} catch (error) {
		throw answerFailure(error);
	}
}

/** What the listing gave: models, or none because the service has no listing there (and why, for the user). */
export type ModelListing = { models: ListedModel[] } | { models?: undefined; unlisted: string };

/** Statuses that say "no listing at this address", not "something is wrong": the documents promise no listing. */
const NO_LISTING_STATUSES = [404, 405, 501];

/**
 * The service's model listing (`GET {ai_url}/api/tags`, the listing of the schema the API follows). The
 * documents promise none, so an address without one (404, 405, 501) or an answer that is no listing is not an
 * error: the user then enters the model ID. Every other failure (a wrong token, the service down, a URL that
 * answers a web page) is thrown, worded by the transport, so the Model list shows it instead of hiding it.
 */
export async function listModels(ctx: AiContext | ILoadOptionsFunctions): Promise<ModelListing> {
	const base = await aiUrl(ctx);
	const url = joinUrl(base, 'api/tags');
	const response = await apiRequest(ctx, {
		api: 'ai',
		url,
		method: 'GET',
		credential: { type: BEARER_CREDENTIAL },
		answer: { accept: NO_LISTING_STATUSES },
		// One look: a listing that is not there is not waited for.
		retry: { maxAttempts: 1 },
	});
	if (NO_LISTING_STATUSES.includes(response.status))
		return {
			unlisted: `The service has no model listing at ${displayUrl(url)} (it answered ${response.status})`,
		};
	const models = parseModelListing(response.body);
	if (!models) return { unlisted: `The answer of ${displayUrl(url)} is not a model listing` };
	return models.length
		? { models }
		: { unlisted: `The model listing at ${displayUrl(url)} names no models` };
}
