/**
 * The six models the hosted AI API offers. The spec describes them by kind, size and capabilities
 * (`<family><version>:<size>`) without naming the ids, so the ids below are the common open-source
 * models of those sizes; any other id can be entered, and is then sent without capability checks.
 */
export interface AiModel {
	id: string;
	name: string;
	description: string;
	tools: boolean;
	thinking: boolean;
	images: boolean;
}

export const AI_MODELS: readonly AiModel[] = [
	{
		id: 'gpt-oss:20b',
		name: 'General Text (20B)',
		description: 'General text model; tools and thinking',
		tools: true,
		thinking: true,
		images: false,
	},
	{
		id: 'qwen3:8b',
		name: 'Compact Text (8B)',
		description: 'Compact, fast text model; tools and thinking',
		tools: true,
		thinking: true,
		images: false,
	},
	{
		id: 'gemma3n:12b',
		name: 'Multimodal Image, Audio and Text (12B)',
		description: 'Reads images and text; tools and thinking',
		tools: true,
		thinking: true,
		images: true,
	},
	{
		id: 'phi4:14b',
		name: 'Plain Completion (14B)',
		description: 'Plain text completion; no tools, no thinking',
		tools: false,
		thinking: false,
		images: false,
	},
	{
		id: 'qwen2.5vl:27b',
		name: 'Vision-Language (27B)',
		description: 'Reads images and text; tools and thinking',
		tools: true,
		thinking: true,
		images: true,
	},
	{
		id: 'qwen3-vl:30b',
		name: 'Multimodal Image and Text (30B)',
		description: 'Reads images and text; tools and thinking',
		tools: true,
		thinking: true,
		images: true,
	},
];

export const DEFAULT_MODEL = 'gpt-oss:20b';

export function knownModel(id: string): AiModel | undefined {
	return AI_MODELS.find((model) => model.id === id.trim());
}

export type ThinkLevel = 'off' | 'low' | 'medium' | 'high';

export const THINK_LEVELS: readonly ThinkLevel[] = ['off', 'low', 'medium', 'high'];

/**
 * A capability the request needs that a known model lacks, as a sentence; undefined when the model is
 * unknown (a custom id: the service decides) or has the capability.
 */
export function missingCapability(
	modelId: string,
	needs: { tools?: boolean; thinking?: boolean; images?: boolean },
): string | undefined {
	const model = knownModel(modelId);
	if (!model) return undefined;
	if (needs.tools && !model.tools) return `${model.name} (${model.id}) cannot call tools`;
	if (needs.thinking && !model.thinking) return `${model.name} (${model.id}) has no thinking mode`;
	if (needs.images && !model.images) return `${model.name} (${model.id}) does not read images`;
	return undefined;
}
