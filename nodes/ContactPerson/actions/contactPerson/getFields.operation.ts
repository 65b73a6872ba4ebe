import { getFieldsOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = getFieldsOperation('contactPerson', 'contact_person');
