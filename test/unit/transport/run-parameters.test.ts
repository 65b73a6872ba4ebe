// Parameters read once per node run: only those whose stored value holds no expression; an expression is
// still resolved for every item, through n8n's engine as before.
import nock from 'nock';
import type {
	INode,
	INodeExecutionData,
	INodeParameters,
	NodeParameterValueType,
} from 'n8n-workflow';

import { holdsExpression, runParameter } from '../../../nodes/shared/node/run-parameters';
import { routeItems } from '../../../nodes/shared/node/router';
import { chain, runWorkflow } from '../../engine/harness';
import { offlineWithNock } from '../offline';
import { BASE, TOKEN, WEB, form, rl, sessionLogin } from '../storage/run-storage';
import { TOKEN as DMS_TOKEN, dmsApi, id } from '../dms/run-dms';

offlineWithNock();

/** A stand-in context: answers `getNodeParameter` from `resolve` and counts the calls. */
function context(
	parameters: INodeParameters,
	resolve: (name: string, itemIndex: number) => unknown,
) {
	const calls: Array<[string, number]> = [];
	let nodeCopies = 0;
	return {
		calls,
		nodeCopies: () => nodeCopies,
		getNode: () => {
			nodeCopies++;
			return { parameters: structuredClone(parameters) } as INode;
		},
		getNodeParameter: ((name: string, itemIndex: number, fallback?: unknown) => {
			calls.push([name, itemIndex]);
			const value = resolve(name, itemIndex);
			return value === undefined ? fallback : value;
		}) as never,
	};
}

describe('holdsExpression', () => {
	it('finds an expression anywhere in a value, and only strings starting with "=" count', () => {
		expect(holdsExpression('={{ $json.a }}')).toBe(true);
		expect(holdsExpression({ __rl: true, mode: 'id', value: '={{ $json.hash }}' })).toBe(true);
		expect(holdsExpression({ a: [{ b: 'x' }, { c: '=1' }] })).toBe(true);
		expect(holdsExpression({ a: 'x = y', b: 3, c: null, d: [true] })).toBe(false);
		expect(holdsExpression('')).toBe(false);
	});
});

describe('runParameter', () => {
	it('reads a constant once for all items of a run', () => {
		const ctx = context({ resource: 'file' }, () => 'file');
		const values = [0, 1, 2].map((index) => runParameter(ctx, 'resource', index));
		expect(values).toEqual(['file', 'file', 'file']);
		expect(ctx.calls).toEqual([['resource', 0]]);
		expect(ctx.nodeCopies()).toBe(1);
	});

	it('reads an expression for every item, and its answers differ per item', () => {
		const ctx = context(
			{ file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' } },
			(_name, index) => ({ __rl: true, mode: 'id', value: `hash-${index}` }),
		);
		const values = [0, 1, 2].map(
			(index) => (runParameter(ctx, 'file', index) as { value: string }).value,
		);
		expect(values).toEqual(['hash-0', 'hash-1', 'hash-2']);
		expect(ctx.calls).toEqual([
			['file', 0],
			['file', 1],
			['file', 2],
		]);
	});

	it('treats a path as varying when a parent or a nested field holds an expression', () => {
		const ctx = context(
			{ options: '={{ $json.options }}', extra: { list: [{ name: 'a', value: '={{ 1 }}' }] } },
			(name, index) => `${name}-${index}`,
		);
		for (const index of [0, 1]) {
			runParameter(ctx, 'options.timeout', index);
			runParameter(ctx, 'extra', index);
		}
		expect(ctx.calls).toEqual([
			['options.timeout', 0],
			['extra', 0],
			['options.timeout', 1],
			['extra', 1],
		]);
	});

	it('reads a missing parameter once and returns its fallback to every item', () => {
		const ctx = context({ requestOptions: {} }, () => undefined);
		expect(runParameter(ctx, 'requestOptions.timeout', 0, null)).toBeNull();
		expect(runParameter(ctx, 'requestOptions.timeout', 1, null)).toBeNull();
		expect(ctx.calls).toHaveLength(1);
	});

	it('hands each item its own copy of an object, so one item cannot change the next', () => {
		const ctx = context({ options: { accessRights: true } }, () => ({ accessRights: true }));
		const first = runParameter<Record<string, unknown>>(ctx, 'options', 0, {});
		first.accessRights = false;
		const second = runParameter<Record<string, unknown>>(ctx, 'options', 1, {});
		second.added = 1;
		expect(runParameter(ctx, 'options', 2, {})).toEqual({ accessRights: true });
		expect(ctx.calls).toHaveLength(1);
	});

	it('does not remember a read n8n refused: the next item asks again', () => {
		let fail = true;
		const ctx = context({ limit: 5 }, () => {
			if (fail) {
				fail = false;
				throw new Error('invalid');
			}
			return 5;
		});
		expect(() => runParameter(ctx, 'limit', 0)).toThrow('invalid');
		expect(runParameter(ctx, 'limit', 1)).toBe(5);
		expect(runParameter(ctx, 'limit', 2)).toBe(5);
		expect(ctx.calls).toEqual([
			['limit', 0],
			['limit', 1],
		]);
	});

	it('keeps runs apart, and different fallbacks apart', () => {
		const one = context({ getBy: 'url' }, () => undefined);
		expect(runParameter(one, 'getBy', 0, 'url')).toBe('url');
		expect(runParameter(one, 'getBy', 1, 'uid')).toBe('uid');
		const two = context({ getBy: 'uid' }, () => 'uid');
		expect(runParameter(two, 'getBy', 0, 'url')).toBe('uid');
	});

	it('passes options it does not know through to n8n for every item', () => {
		const ctx = context({ limit: 5 }, () => 5);
		runParameter(ctx, 'limit', 0, undefined, { ensureType: 'number' });
		runParameter(ctx, 'limit', 1, undefined, { ensureType: 'number' });
		expect(ctx.calls).toHaveLength(2);
	});
});

describe('one run of Get File Info over several items, through the engine', () => {
	async function run(file: NodeParameterValueType, options: INodeParameters = {}) {
		sessionLogin();
		const seen: Array<Record<string, string>> = [];
		nock(BASE)
			.post('/api_v2/get_file_info')
			.times(3)
			.reply(200, (_uri, body) => {
				const fields = form(String(body));
				seen.push(fields);
				return { hash: fields.file_hash, name: `${fields.file_hash}.txt` };
			});
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'Hashes',
				type: 'engine-test.jsonItems',
				parameters: { items: JSON.stringify([{ hash: 'H1' }, { hash: 'H2' }, { hash: 'H3' }]) },
			},
			{
				name: 'Storage',
				type: 'n8n-nodes-cloud-storage.cloudStorage',
				parameters: {
					authentication: 'tokenApi',
					resource: 'file',
					operation: 'get',
					file,
					options,
				},
			},
		];
		const result = await runWorkflow(
			{ nodes, connections: chain(...nodes.map((node) => node.name)) },
			{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
		);
		return { seen, out: result.nodeOutput('Storage') };
	}

	it('resolves an expression locator for each item: three items, three different files', async () => {
		const { seen, out } = await run(rl('={{ $json.hash }}'), { accessRights: true });
		expect(seen.map((fields) => fields.file_hash)).toEqual(['H1', 'H2', 'H3']);
		expect(seen.every((fields) => fields.get_access_rights === '1')).toBe(true);
		expect(out.map((item) => item.json.link)).toEqual([
			`${WEB}/f/H1`,
			`${WEB}/f/H2`,
			`${WEB}/f/H3`,
		]);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('uses a fixed locator for every item', async () => {
		const { seen } = await run(rl('FIXED'));
		expect(seen.map((fields) => fields.file_hash)).toEqual(['FIXED', 'FIXED', 'FIXED']);
	});
});

describe('one run of DMS Get over several items, through the engine', () => {
	async function run(documentId: NodeParameterValueType) {
		const sent = dmsApi({ 'task/get_document': [200, { dvs_document_id: 1, name: 'T' }] });
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'Ids',
				type: 'engine-test.jsonItems',
				parameters: { items: JSON.stringify([{ id: 11 }, { id: 12 }, { id: 13 }]) },
			},
			{
				name: 'DMS',
				type: 'n8n-nodes-cloud-storage.cloudStorageDmsTask',
				parameters: { resource: 'task', operation: 'get', documentId },
			},
		];
		await runWorkflow(
			{ nodes, connections: chain(...nodes.map((node) => node.name)) },
			{ credentials: { cloudStorageTokenApi: { ...DMS_TOKEN } } as never },
		);
		return sent.map((entry) => entry.body.dvs_document_id);
	}

	it('resolves an expression ID for each item', async () => {
		expect(await run(id('={{ $json.id }}'))).toEqual([11, 12, 13]);
	});

	it('uses a fixed ID for every item', async () => {
		expect(await run(id(7))).toEqual([7, 7, 7]);
	});
});

describe('the item loop resolves the next item ahead while one waits for its answer', () => {
	/** Three items whose operation waits until the test releases it; `file` holds an expression. */
	function loop(file: (itemIndex: number) => string, reads: boolean) {
		const node = {
			name: 'Storage',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: { resource: 'file', operation: 'get', file: '={{ $json.hash }}' },
		};
		const ctx = context(node.parameters, (name, itemIndex) =>
			name === 'file' ? file(itemIndex) : node.parameters[name as 'resource'],
		);
		const release: Array<() => void> = [];
		const execute = async function (this: typeof ctx, itemIndex: number) {
			const file = runParameter<string>(this, 'file', itemIndex);
			await new Promise<void>((done) => (release[itemIndex] = done));
			return [{ json: { file } }];
		};
		const operations = {
			file: { get: { description: [], execute, ...(reads ? { concurrency: () => 1 } : {}) } },
		};
		const run = routeItems.call(
			{
				...ctx,
				getNode: () => ({ ...node, parameters: structuredClone(node.parameters) }),
				getInputData: () => [{ json: {} }, { json: {} }, { json: {} }],
				continueOnFail: () => true,
				helpers: {
					constructExecutionMetaData: (
						items: INodeExecutionData[],
						{ itemData }: { itemData: { item: number } },
					) => items.map((item) => ({ ...item, pairedItem: itemData })),
				},
			} as never,
			operations as never,
		);
		return { ctx, release, run };
	}

	/** A few turns of the event loop: the item's request would have been written by then. */
	const turns = () =>
		new Promise<void>((done) => setImmediate(() => setImmediate(() => setImmediate(done))));
	const fileReads = (calls: Array<[string, number]>) =>
		calls.filter(([name]) => name === 'file').map(([, index]) => index);

	it("reads the next item's expression while the item before waits, and only once", async () => {
		const { ctx, release, run } = loop((index) => `H${index}`, true);
		await turns();
		expect(fileReads(ctx.calls)).toEqual([0, 1]);
		release[0]();
		await turns();
		release[1]();
		await turns();
		release[2]();
		const [out] = await run;
		expect(out.map((item) => item.json.file)).toEqual(['H0', 'H1', 'H2']);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(fileReads(ctx.calls)).toEqual([0, 1, 2]);
	});

	it('fails the item whose expression fails, when that item runs, not the one before', async () => {
		const { release, run } = loop((index) => {
			if (index === 1) throw new Error('bad expression in item 1');
			return `H${index}`;
		}, true);
		await turns();
		release[0]();
		await turns();
		release[2]();
		const [out] = await run;
		expect(out.map((item) => item.json)).toEqual([
			{ file: 'H0' },
			{ error: 'bad expression in item 1' },
			{ file: 'H2' },
		]);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('leaves the items of an operation that writes strictly one after the other', async () => {
		const { ctx, release, run } = loop((index) => `H${index}`, false);
		await turns();
		expect(fileReads(ctx.calls)).toEqual([0]);
		release[0]();
		await turns();
		release[1]();
		await turns();
		release[2]();
		await run;
		expect(fileReads(ctx.calls)).toEqual([0, 1, 2]);
	});
});
