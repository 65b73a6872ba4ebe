import type { INodeProperties } from 'n8n-workflow';

/**
 * Criteria rows of advanced mode. The spec names the row fields (Field, Operator, Query, AdditionalParam)
 * but not their values; these are the ones offered, and any other value can be typed as an expression.
 */
export const criteriaField: INodeProperties = {
	displayName: 'Criteria',
	name: 'criteria',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Criterion',
	default: {},
	options: [
		{
			displayName: 'Row',
			name: 'rows',
			values: [
				{
					displayName: 'Field',
					name: 'field',
					type: 'options',
					options: [
						{ name: 'Content Type', value: 'CONTENT_TYPE' },
						{ name: 'Extension', value: 'EXTENSION' },
						{
							name: 'Modification Date',
							value: 'MOD_DATE',
							description: 'YYYY-MM-DD or YYYY-MM-DD HH:MM:SS',
						},
						{ name: 'Name', value: 'NAME' },
						{ name: 'Size (Bytes)', value: 'SIZE' },
						{ name: 'Type (File or Folder)', value: 'TYPE' },
					],
					default: 'NAME',
				},
				{
					displayName: 'Operator',
					name: 'operator',
					type: 'options',
					options: [
						{ name: 'Between (Query and Additional Parameter)', value: 'BETWEEN' },
						{ name: 'Contains', value: 'CONTAINS' },
						{ name: 'Ends With', value: 'ENDS_WITH' },
						{ name: 'Equals', value: 'EQUALS' },
						{ name: 'Greater Than', value: 'GREATER' },
						{ name: 'Less Than', value: 'LESS' },
						{ name: 'Not Contains', value: 'NOT_CONTAINS' },
						{ name: 'Not Equals', value: 'NOT_EQUALS' },
						{ name: 'Starts With', value: 'STARTS_WITH' },
					],
					default: 'CONTAINS',
					description:
						'Text fields compare text; size and date fields compare values (Greater, Less, Between)',
				},
				{
					displayName: 'Query',
					name: 'query',
					type: 'string',
					default: '',
					description: 'The value to compare with',
				},
				{
					displayName: 'Additional Parameter',
					name: 'additionalParam',
					type: 'string',
					default: '',
					description: 'The second value, for Between: the upper bound',
				},
			],
		},
	],
};
