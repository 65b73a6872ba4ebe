import { documentLocator } from '../../../shared/dms/descriptions';
import { documentId } from '../../../shared/dms/lookup';
import { createOperation } from '../../../shared/dms/node-operations';

const project = documentLocator('project_2', 'project', {
	description:
		'The project of the task: it decides which users can be responsible or follow it, and cannot be changed later',
});

export const { description, execute } = createOperation(
	'task',
	'task',
	[project],
	(ctx, itemIndex) => ({
		fixed: { dvs_project_id: documentId(ctx, 'project', 'project_2', itemIndex) },
		checkHint: 'Look for it with Get Many filtered by this project (newest first).',
	}),
);
