import type { INodeProperties } from 'n8n-workflow';

/**
 * Criteria rows of advanced mode. The documents name the row fields (Field, Operator, Query, AdditionalParam)
 * but list none of their values: the fields and operators offered are the pack's choice, so "Other" lets
 * the user type any value the service takes (and an expression can give any value too).
 */
export const OTHER = '__other__';

export const criteriaNotice: INodeProperties = {
	displayName:
		"The service's documents name a criterion's parts (Field, Operator, Query, Additional Parameter) but list no fields or operators. Those offered below are this node's suggestions; choose Other to type any field or operator the service accepts.",
	name: 'criteriaNotice',
	type: 'notice',
	default: '',
};

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
					displayName: 'Additional Parameter',
					name: 'additionalParam',
					type: 'string',
					default: '',
					description: 'The second value, for Between: the upper bound',
				},
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
						{ name: 'Other (Type It Below)', value: OTHER },
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
						{ name: 'Other (Type It Below)', value: OTHER },
						{ name: 'Starts With', value: 'STARTS_WITH' },
					],
					default: 'CONTAINS',
					description:
						'Text fields compare text; size and date fields compare values (Greater, Less, Between)',
				},
				{
					displayName: 'Other Field',
					name: 'otherField',
					type: 'string',
					default: '',
					placeholder: 'e.g. NAME',
					description: 'The Field value sent to the service, as its search documentation names it',
					displayOptions: { show: { field: [OTHER] } },
				},
				{
					displayName: 'Other Operator',
					name: 'otherOperator',
					type: 'string',
					default: '',
					placeholder: 'e.g. CONTAINS',
					description:
						'The Operator value sent to the service, as its search documentation names it',
					displayOptions: { show: { operator: [OTHER] } },
				},
				{
					displayName: 'Query',
					name: 'query',
					type: 'string',
					default: '',
					description: 'The value to compare with',
				},
			],
		},
	],
};
