import { updateOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = updateOperation(
	'task',
	'task',
	'Only the fields you set change. List fields (labels, followers, external followers) replace the current selection: include the values to keep. The project of a task cannot be changed.',
	{ dvs_project_id: 'project' },
);
