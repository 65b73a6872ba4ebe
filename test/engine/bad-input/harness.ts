/**
 * The table runner of the bad-input suite. Each case runs its node through n8n's engine three times:
 * twice with Continue On Fail on two input items (each item must become an error item naming the problem,
 * paired to its own index) and once without it (the execution must fail with a NodeOperationError or
 * NodeApiError carrying the item index). Cases without `answer` must send no request at all: nock has no
 * interceptor then, so any request would show up as a "no match".
 */
import nock from 'nock';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow, type NodeSpec } from '../harness';
import { callsThroughNock } from '../../unit/offline';

callsThroughNock();

export const BASE = 'https://api.example.test';
export const WEB = 'https://www.example.test';
export const DAV = 'https://dav.example.test';
export const AI = 'https://ai.example.test';

export const SECRETS = ['tok-secret-1', 'sess-secret-1', 'dav-secret-1', 'tok-ai-secret'];

export const CREDENTIALS = {
	cloudStorageTokenApi: {
		baseUrl: BASE,
		webUrl: WEB,
		user: 'demo',
		accessToken: 'tok-secret-1',
		sessionId: 'sess-secret-1',
	},
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
	cloudStorageBearerApi: { userId: '1001', apiToken: 'tok-ai-secret', baseUrl: BASE, aiUrl: AI },
};

export const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
export const mapped = (value: Record<string, unknown>) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
});

export interface BadInput {
	name: string;
	/** Node type name without the package prefix, e.g. `cloudStorage`. */
	node: string;
	parameters: Record<string, unknown>;
	/** Matched against the error's message and description joined by " | ". */
	error: RegExp;
	credentials?: Record<string, object>;
	binary?: { content: string; fileName?: string; mimeType?: string };
	/** Only for problems the answer alone reveals: sets up nock (persisting) for every run of the case. */
	answer?: () => void;
}

interface CaseRun {
	out: INodeExecutionData[];
	error?: {
		name?: string;
		message?: string;
		description?: string | null;
		context?: { itemIndex?: number };
	};
}

async function run(testCase: BadInput, continueOnFail: boolean): Promise<CaseRun> {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'Items', type: 'engine-test.jsonItems', parameters: { items: '[{"n":0},{"n":1}]' } },
	];
	if (testCase.binary) {
		const { content, fileName = 'report.pdf', mimeType = 'application/pdf' } = testCase.binary;
		nodes.push({
			name: 'File',
			type: 'engine-test.binaryFixture',
			parameters: { content, fileName, mimeType },
		});
	}
	nodes.push({
		name: 'Node',
		type: `${PACKAGE_NAME}.${testCase.node}`,
		parameters: testCase.parameters as INodeParameters,
		...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	});
	const credentials = structuredClone(testCase.credentials ?? CREDENTIALS);
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: credentials as never },
	);
	return { out: result.nodeOutput('Node'), error: result.error as CaseRun['error'] };
}

const text = (message?: string, description?: string | null) =>
	`${message ?? ''} | ${description ?? ''}`;

/** Runs one case and checks every promise of the suite; returns the error text for extra checks. */
export async function expectBadInput(testCase: BadInput): Promise<string> {
	const unexpected: string[] = [];
	const onNoMatch = (req: { method?: string; path?: string; hostname?: string }) =>
		unexpected.push(`${req.method} ${req.hostname ?? ''}${req.path}`);
	nock.emitter.on('no match', onNoMatch);
	try {
		nock.cleanAll();
		testCase.answer?.();
		const tolerant = await run(testCase, true);
		expect(tolerant.error).toBeUndefined();
		expect(tolerant.out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of tolerant.out) {
			expect(text(item.json.error as string, item.json.description as string)).toMatch(
				testCase.error,
			);
		}

		nock.cleanAll();
		testCase.answer?.();
		const strict = await run(testCase, false);
		expect(strict.error?.name).toMatch(/^Node(Operation|Api)Error$/);
		expect(strict.error?.context?.itemIndex).toBe(0);
		const message = text(strict.error?.message, strict.error?.description);
		expect(message).toMatch(testCase.error);
		expect(message).not.toMatch(/undefined|\[object Object\]|Cannot read prop/);
		for (const secret of SECRETS) expect(message).not.toContain(secret);
		if (!testCase.answer) expect(unexpected).toEqual([]);
		return message;
	} finally {
		nock.emitter.removeListener('no match', onNoMatch);
	}
}

/** Standard jest wiring for a bad-input file. */
export function badInputSuite(cases: BadInput[]): void {
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
		nock.restore();
	});
	it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
		'%s',
		async (_name, testCase) => {
			await expectBadInput(testCase);
		},
	);
}
