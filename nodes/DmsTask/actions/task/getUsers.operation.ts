import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getUsers } from '../../../shared/dms/client';
import { documentLocator } from '../../../shared/dms/descriptions';
import { documentId } from '../../../shared/dms/lookup';

const properties = [
	documentLocator('project_2', 'project', {
		description: 'Users are the workers of this project: the ones a task of it can name',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['getUsers'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const projectId = documentId(this, 'project', 'project_2', itemIndex);
	const users = await getUsers(this, 'task', projectId, itemIndex);
	return users.map((user) => ({ json: { ...user, dvs_project_id: projectId } }));
}
