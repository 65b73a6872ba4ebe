// The DMS examples carry the resource mapper's `schema` exactly as n8n's editor saves it, so opening one of
// their nodes changes nothing (an empty schema is filled on opening and n8n then marks the workflow changed).
// n8n-editor-ui 2.41 (ResourceMapper.vue, loadFieldsToMap) replaces the schema by the fields the mapper
// method answers, keeps a stored boolean `removed` and otherwise sets `removed: false`, and saves only when
// the result differs (lodash isEqual) from the stored schema. With `removed: false` on every stored field,
// the stored schema is therefore a fixed point exactly when it equals the method's answer plus
// `removed: false`. This test asks the nodes' own mapper methods, in n8n-core's real load-options context,
// against the sandbox's seeded DMS, so a field change in the sandbox or the mapper fails here until the
// examples are refreshed. Refresh (and see it in the real editor) with
//   node_modules/.bin/node scripts/capture-mapper-schema.ts
// which opens each node in n8n's editor, saves, prints the saved fields and says which nodes changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeProperties,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { createAdditionalData } from '../harness/additional-data';
import { CredentialStore } from '../harness/credential-store';
import { EngineCredentialsHelper } from '../harness/credentials-helper';
import { createRegistry } from '../harness/registry';
import { engineServices } from '../harness/services';

const WORKFLOWS = join(__dirname, '../../e2e/workflows');
const FILES = ['dms-task-roundtrip.json', 'dms-task-writer.json', 'dms-input-errors.json'];

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await engineServices();
});
afterAll(async () => await sandbox?.close());

type ExampleNode = INode & { parameters: { fields?: { schema?: ResourceMapperField[] } } };

const mapperNodes = FILES.flatMap((file) => {
	const workflow = JSON.parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as {
		nodes: ExampleNode[];
	};
	return workflow.nodes
		.filter((node) => node.parameters.fields?.schema !== undefined)
		.map((node) => [file, node.name, node] as const);
});

/** The resource mapper the editor shows for the node's resource and operation, as n8n picks it. */
function mapperMethod(properties: INodeProperties[], parameters: Record<string, unknown>): string {
	const shown = properties.filter(
		(property) =>
			property.name === 'fields' &&
			property.type === 'resourceMapper' &&
			Object.entries(property.displayOptions?.show ?? {}).every(([name, values]) =>
				(values as unknown[]).includes(parameters[name]),
			),
	);
	if (shown.length !== 1) throw new Error(`expected one field mapper shown, found ${shown.length}`);
	return String(shown[0].typeOptions?.resourceMapper?.resourceMapperMethod);
}

/** What n8n's editor loads for the node: its mapper method, called with the node's current parameters. */
async function editorFields(node: ExampleNode): Promise<ResourceMapperField[]> {
	const { nodeTypes, credentialTypes } = createRegistry();
	const credentials = {
		cloudStorageTokenApi: {
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: DEMO_ACCOUNT.username,
			accessToken: DEMO_ACCOUNT.token,
		},
	};
	const credentialsHelper = new EngineCredentialsHelper(
		credentialTypes,
		new CredentialStore(credentials),
	);
	const additionalData = createAdditionalData({
		credentialsHelper,
		executionId: 'examples-schema',
		workflowId: 'examples-schema',
	});
	additionalData.currentNodeParameters = node.parameters;
	const workflow = new Workflow({
		id: 'examples-schema',
		nodes: [structuredClone(node)],
		connections: {},
		active: false,
		nodeTypes,
	});
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const method = mapperMethod(nodeType.description.properties, node.parameters);
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.fields');
	const answer = (await nodeType.methods!.resourceMapping![method].call(
		context,
	)) as ResourceMapperFields;
	return answer.fields;
}

describe('DMS examples: resource-mapper schema as the editor saves it', () => {
	test.each(mapperNodes)('%s, node "%s"', async (_file, _name, node) => {
		const expected = (await editorFields(node)).map((field) => ({ ...field, removed: false }));
		expect(node.parameters.fields!.schema).toEqual(expected);
	});
});
