import {
	buildSearchJson,
	checkPageSize,
	checkQuery,
	parseSearchJson,
	SearchInputError,
	sortFields,
	validateSearchJson,
} from '../../../nodes/shared/search/search-json';

const problem = (run: () => unknown) => {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(SearchInputError);
		return (error as Error).message;
	}
	throw new Error('expected a SearchInputError');
};

describe('search_json from the fields', () => {
	it('builds simple mode with upper-case flags and the trimmed query', () => {
		expect(
			buildSearchJson({
				mode: 'simple',
				query: '  invoice ',
				types: ['DOCUMENTS', 'IMAGES'],
				sections: ['MY', 'SHARED_WITH_ME'],
			}),
		).toEqual({
			Mode: 'simple',
			Query: 'invoice',
			Types: { DOCUMENTS: true, IMAGES: true },
			Sections: { MY: true, SHARED_WITH_ME: true },
		});
	});

	it('builds advanced mode with Operator and Criteria, leaving out an empty query and AdditionalParam', () => {
		const json = buildSearchJson({
			mode: 'advanced',
			query: '',
			types: [],
			sections: ['THIS_FOLDER'],
			thisFolder: 'F1',
			operator: 'OR',
			criteria: [
				{ field: 'SIZE', operator: 'BETWEEN', query: '10', additionalParam: '99' },
				{ field: 'NAME', operator: 'CONTAINS', query: 'tax', additionalParam: '' },
			],
		});
		expect(json).toEqual({
			Mode: 'advanced',
			Types: {},
			Sections: { THIS_FOLDER: true },
			ThisFolder: 'F1',
			Operator: 'OR',
			Criteria: [
				{ Field: 'SIZE', Operator: 'BETWEEN', Query: '10', AdditionalParam: '99' },
				{ Field: 'NAME', Operator: 'CONTAINS', Query: 'tax' },
			],
		});
		expect(validateSearchJson(json)).toBe(json);
	});
});

describe('search_json checks', () => {
	const simple = { Mode: 'simple', Query: 'invoice', Types: {}, Sections: { MY: true } };

	it('accepts the documented shapes', () => {
		expect(validateSearchJson(simple)).toEqual(simple);
		expect(
			validateSearchJson({
				Mode: 'advanced',
				Sections: { DELETED: true },
				Operator: 'AND',
				Criteria: [{ Field: 'SIZE', Operator: 'GREATER', Query: 5 }],
			}),
		).toBeTruthy();
	});

	it.each([
		[{ ...simple, Mode: 'fuzzy' }, 'Mode must be "simple" or "advanced"'],
		[{ ...simple, Query: 'x' }, 'Query "x" is too short'],
		[{ ...simple, Query: '  ' }, 'Query is empty'],
		[{ Mode: 'simple', Query: 'ab', Sections: { MY: true } }, 'Types is required in simple mode'],
		[{ ...simple, Types: [] }, 'Types must be an object of booleans'],
		[{ ...simple, Types: { PDF: true } }, 'Types has an unknown key "PDF"'],
		[{ ...simple, Types: { IMAGES: 'yes' } }, 'Types.IMAGES must be true or false'],
		[{ ...simple, Sections: undefined }, 'Sections is required'],
		[{ ...simple, Sections: {} }, 'Choose at least one section to search'],
		[{ ...simple, Sections: { MY: false } }, 'Choose at least one section to search'],
		[{ ...simple, Sections: { THIS_FOLDER: true } }, 'The section "This Folder" needs a folder'],
		[
			{ ...simple, Sections: { THIS_FOLDER: true }, ThisFolder: ' ' },
			'The section "This Folder" needs a folder',
		],
		[{ ...simple, Extra: 1 }, 'The search JSON has an unknown field "Extra"'],
		[
			{
				Mode: 'advanced',
				Sections: { MY: true },
				Criteria: [{ Field: 'NAME', Operator: 'CONTAINS', Query: 'a' }],
			},
			'Operator must be "AND" or "OR" in advanced mode',
		],
		[
			{ Mode: 'advanced', Sections: { MY: true }, Operator: 'AND', Criteria: [] },
			'Advanced mode needs at least one criteria row',
		],
		[
			{
				Mode: 'advanced',
				Sections: { MY: true },
				Operator: 'AND',
				Criteria: [{ Operator: 'CONTAINS', Query: 'a' }],
			},
			'Criteria row 1 has no Field',
		],
		[
			{
				Mode: 'advanced',
				Sections: { MY: true },
				Operator: 'AND',
				Criteria: [{ Field: 'NAME', Operator: 'CONTAINS', Query: '' }],
			},
			'Criteria row 1 has no Query',
		],
		[
			{
				Mode: 'advanced',
				Query: 'a',
				Sections: { MY: true },
				Operator: 'AND',
				Criteria: [{ Field: 'NAME', Operator: 'CONTAINS', Query: 'ab' }],
			},
			'Query "a" is too short',
		],
		[[simple], 'The search JSON must be an object'],
	])('refuses %j', (value, message) => {
		expect(problem(() => validateSearchJson(value))).toBe(message);
	});

	it('parses raw JSON text or takes an object from an expression', () => {
		expect(parseSearchJson(JSON.stringify(simple))).toEqual(simple);
		expect(parseSearchJson(simple)).toEqual(simple);
		expect(problem(() => parseSearchJson('{"Mode": "simple",'))).toBe(
			'The search JSON is not valid JSON',
		);
		expect(problem(() => parseSearchJson('  '))).toBe('The search JSON is empty');
	});
});

describe('query, page size and sorting', () => {
	it('needs two characters after trimming', () => {
		expect(checkQuery(' ab ')).toBe('ab');
		expect(problem(() => checkQuery('a'))).toBe('Query "a" is too short');
		expect(problem(() => checkQuery(undefined))).toBe('Query is empty');
	});

	it('takes page sizes from 1 to 1000', () => {
		expect(checkPageSize(1)).toBe(1);
		expect(checkPageSize(1000)).toBe(1000);
		for (const bad of [0, 1001, 2.5, 'x'])
			expect(() => checkPageSize(bad)).toThrow(SearchInputError);
	});

	it('maps each sort to the documented table_column index', () => {
		expect(sortFields('name', 'ascending')).toEqual({ 'table_column[2]': 0 });
		expect(sortFields('size', 'descending')).toEqual({ 'table_column[4]': 1 });
		expect(sortFields('owner', 'ascending')).toEqual({ 'table_column[5]': 0 });
		expect(sortFields('views', 'descending')).toEqual({ 'table_column[6]': 1 });
		expect(sortFields('modified', 'descending')).toEqual({ 'table_column[7]': 1 });
	});
});
