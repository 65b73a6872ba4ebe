/**
 * What the documents say about the AI API's models: six of them, described by capability and size only
 * (`<family><version>:<size>`), with no ids. So the pack invents none: the model list comes from the
 * service's listing when it answers one, and these descriptions are shown as hints. No n8n imports.
 */
export const DOCUMENTED_MODELS: readonly string[] = [
	'a general text model (20b; tools, thinking)',
	'a compact text model (8b; tools, thinking)',
	'a multimodal image, audio and text model (12b; tools, thinking)',
	'a plain completion model (14b; no tools, no thinking)',
	'a vision-language model (27b; tools, thinking)',
	'a multimodal image and text model (30b; tools, thinking)',
];

/** One model of the service's listing. */
export interface ListedModel {
	id: string;
	/** What the listing says the model can do, when it says it (e.g. tools, thinking, vision). */
	capabilities?: string[];
	size?: string;
	family?: string;
}

const text = (value: unknown) =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * The models of a listing in the schema the API follows (the open-source local model server's
 * `GET /api/tags`: `{models: [{name | model, details: {family, parameter_size}, capabilities?}]}`), or of
 * the common `{data: [{id}]}` shape. Anything else is no listing (undefined), never an error.
 */
export function parseModelListing(body: unknown): ListedModel[] | undefined {
	const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
	const entries = Array.isArray(record.models)
		? record.models
		: Array.isArray(record.data)
			? record.data
			: undefined;
	if (!entries) return undefined;
	const models: ListedModel[] = [];
	for (const entry of entries as Array<Record<string, unknown>>) {
		const id = text(entry?.name) ?? text(entry?.model) ?? text(entry?.id);
		if (!id) continue;
		const details = (entry.details ?? {}) as Record<string, unknown>;
		const capabilities = Array.isArray(entry.capabilities)
			? entry.capabilities.filter((value): value is string => typeof value === 'string')
			: undefined;
		models.push({
			id,
			capabilities,
			size: text(details.parameter_size),
			family: text(details.family),
		});
	}
	return models;
}

export type ThinkLevel = 'off' | 'low' | 'medium' | 'high';

export const THINK_LEVELS: readonly ThinkLevel[] = ['off', 'low', 'medium', 'high'];
