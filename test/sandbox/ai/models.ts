/**
 * The sandbox's six models, by the spec's descriptions (`<family><version>:<size>`; the ids are the
 * sandbox's choice, since the spec does not name them).
 */
export interface SandboxModel {
	id: string;
	tools: boolean;
	thinking: boolean;
	images: boolean;
}

export const SANDBOX_MODELS: readonly SandboxModel[] = [
	{ id: 'gpt-oss:20b', tools: true, thinking: true, images: false },
	{ id: 'qwen3:8b', tools: true, thinking: true, images: false },
	{ id: 'gemma3n:12b', tools: true, thinking: true, images: true },
	{ id: 'phi4:14b', tools: false, thinking: false, images: false },
	{ id: 'qwen2.5vl:27b', tools: true, thinking: true, images: true },
	{ id: 'qwen3-vl:30b', tools: true, thinking: true, images: true },
];

export function sandboxModel(id: unknown): SandboxModel | undefined {
	return SANDBOX_MODELS.find((model) => model.id === id);
}

/**
 * Whether `GET /api/tags` answers: the documents name no model listing, so it is the sandbox's stand-in for
 * the listing of the server schema the API follows; tests switch it off to play a service without one.
 */
const listingOff = new WeakSet<object>();

export function setModelListing(store: object, enabled: boolean): void {
	if (enabled) listingOff.delete(store);
	else listingOff.add(store);
}

export const modelListingEnabled = (store: object) => !listingOff.has(store);

/** The listing in that schema, with Ollama's capability words (completion, tools, thinking, vision). */
export function modelListing(): { models: Array<Record<string, unknown>> } {
	return {
		models: SANDBOX_MODELS.map((model) => ({
			name: model.id,
			model: model.id,
			details: {
				family: model.id.split(':')[0],
				parameter_size: model.id.split(':')[1]?.toUpperCase(),
			},
			capabilities: [
				'completion',
				...(model.tools ? ['tools'] : []),
				...(model.thinking ? ['thinking'] : []),
				...(model.images ? ['vision'] : []),
			],
		})),
	};
}
