import { getManyOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getManyOperation('client', 'client');
