import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A new name for a file or folder: trimmed, not empty, without path separators. */
export function requiredName(ctx: IExecuteFunctions, parameter: string, itemIndex: number): string {
	const name = String(ctx.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
	if (!name) {
		throw new NodeOperationError(ctx.getNode(), 'The name is empty', {
			itemIndex,
			description: 'Enter the new name.',
		});
	}
	if (/[/\\]/.test(name)) {
		throw new NodeOperationError(ctx.getNode(), `"${name}" contains a slash`, {
			itemIndex,
			description:
				'A name cannot contain / or \\. To file into subfolders use Folder → Create Path.',
		});
	}
	return name;
}
