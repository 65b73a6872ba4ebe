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
