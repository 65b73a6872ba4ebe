import { getOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getOperation('contactPerson', 'contact_person');
