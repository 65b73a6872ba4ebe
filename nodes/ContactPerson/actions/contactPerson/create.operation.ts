import { createOperation } from '../../../shared/dms/node-operations';

export const { description, execute } = createOperation(
	'contactPerson',
	'contact_person',
	[],
	() => ({
		checkHint: 'Look for it with Get Many (newest first), filtered by its company if it has one.',
	}),
);
