import { getManyOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getManyOperation('project', 'project_2');
