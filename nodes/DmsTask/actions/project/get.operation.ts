import { getOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getOperation('project', 'project_2');
