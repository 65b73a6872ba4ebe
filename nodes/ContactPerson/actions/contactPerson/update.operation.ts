import { updateOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = updateOperation(
	'contactPerson',
	'contact_person',
	'Only the fields you set change. List fields (such as groups) replace the current selection: include the values to keep.',
);
