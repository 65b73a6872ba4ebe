import { getManyOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getManyOperation('contactPerson', 'contact_person');
