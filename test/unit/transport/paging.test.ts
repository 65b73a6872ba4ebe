import {
	collectByOffsetTotal,
	collectByPageNumber,
	collectByRawOffset,
} from '../../../nodes/shared/transport/paging';

const range = (from: number, to: number) =>
	Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

describe('limit/offset until total (DMS)', () => {
	it('reads every item once, advancing by the items received', async () => {
		const calls: Array<[number, number]> = [];
		const items = await collectByOffsetTotal(
			async (offset, limit) => {
				calls.push([offset, limit]);
				return { items: range(offset, Math.min(offset + limit, 450)), total: 450 };
			},
			{ pageSize: 200 },
		);
		expect(items).toEqual(range(0, 450));
		expect(calls).toEqual([
			[0, 200],
			[200, 200],
			[400, 200],
		]);
	});

	it('stops at the limit, asking only for what is needed', async () => {
		const calls: number[] = [];
		const items = await collectByOffsetTotal(
			async (offset, limit) => (
				calls.push(limit),
				{ items: range(offset, offset + limit), total: 1000 }
			),
			{ pageSize: 200, max: 250 },
		);
		expect(items).toHaveLength(250);
		expect(calls).toEqual([200, 50]);
	});

	it('ends on an empty page even if total said more', async () => {
		const items = await collectByOffsetTotal(
			async (offset) => ({ items: offset === 0 ? [1] : [], total: 10 }),
			{ pageSize: 5 },
		);
		expect(items).toEqual([1]);
	});
});

describe('table_page/table_size (search)', () => {
	it('reads zero-based pages until page_count', async () => {
		const pages: number[] = [];
		const rows = await collectByPageNumber(
			async (page, size) => (
				pages.push(page),
				{ rows: range(page * size, Math.min((page + 1) * size, 2500)), pageCount: 3 }
			),
			{ pageSize: 1000 },
		);
		expect(pages).toEqual([0, 1, 2]);
		expect(rows).toEqual(range(0, 2500));
		expect(new Set(rows).size).toBe(2500);
	});

	it('stops at the limit', async () => {
		const rows = await collectByPageNumber(
			async (page, size) => ({ rows: range(page * size, (page + 1) * size), pageCount: 9 }),
			{
				pageSize: 10,
				max: 15,
			},
		);
		expect(rows).toEqual(range(0, 15));
	});
});

describe('raw offset with short pages (MCP listing)', () => {
	it('does not stop at a short page and advances over the raw sequence', async () => {
		const visible = (n: number) => n % 3 !== 0;
		const offsets: number[] = [];
		const items = await collectByRawOffset(
			async (offset, limit) => {
				offsets.push(offset);
				const raw = range(offset, Math.min(offset + limit, 25));
				return { items: raw.filter(visible), consumed: raw.length };
			},
			{ pageSize: 10 },
		);
		expect(offsets).toEqual([0, 10, 20, 25]);
		expect(items).toEqual(range(0, 25).filter(visible));
	});
});
