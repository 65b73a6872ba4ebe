/**
 * The editor's "Test" button for a credential, as n8n's CredentialsTester does it: the credential type's
 * `test` request (or a node's `testedBy`) runs through n8n-core's RoutingNode on a temporary No Op node,
 * with `preAuthentication` always run, and the `rules` of the test applied to the answer or error.
 */
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { CredentialStore } from './credential-store';
import { EngineCredentialsHelper } from './credentials-helper';
import { createRegistry, type ExtraTypes } from './registry';
import { engineServices } from './services';

export async function testCredential(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	extra: ExtraTypes = {},
): Promise<INodeCredentialTestResult> {
	await engineServices();
	const { nodeTypes, credentialTypes } = createRegistry(extra);
	// `data` is the saved credential: whatever preAuthentication persists is written back into it.
	const credentialsHelper = new EngineCredentialsHelper(
		credentialTypes,
		new CredentialStore({ [credentialType]: data }),
	);
	const additionalData = createAdditionalData({
		credentialsHelper,
		executionId: 'credential-test',
		workflowId: 'none',
	});
	const credentials: ICredentialsDecrypted = {
		id: credentialType,
		name: 'test',
		type: credentialType,
		data,
	};
	try {
		credentials.data = credentialsHelper.applyDefaults(
			additionalData,
			data,
			credentialType,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}

	const test =
		credentialTypes.getByName(credentialType).test ?? findTestedBy(credentialType, nodeTypes.types);
	if (test === undefined)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	if (typeof test === 'function') return await test.call(new CredentialTestContext(), credentials);

	// A No Op node whose only parameter routes the test request; n8n always refreshes sessions for it.
	const testNodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: testNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType]: { id: credentials.id, name: credentials.name } },
	};
	const oneType = {
		getByName: () => testNodeType,
		getByNameAndVersion: () => testNodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: oneType,
	});
	const runExecutionData = createRunExecutionData();
	const inputData = { main: [[{ json: {} }]] };
	const executeData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		executeData,
		[],
	);

	let response;
	try {
		response = await new RoutingNode(context, testNodeType, credentials).runNode();
	} catch (error) {
		return resultOfFailedTest(error as FailedRequest, test);
	}
	for (const rule of test.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			valueAt(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash's `get` for dotted paths, which n8n uses to read a rule's key from the answer. */
function valueAt(object: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}

type FailedRequest = Error & {
	cause?: { code?: string; response?: { status: number; statusText?: string } };
};

function resultOfFailedTest(
	error: FailedRequest,
	test: ICredentialTestRequest,
): INodeCredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (response.status < 199 || response.status > 299) {
			return {
				status: 'Error',
				message: response.statusText || `Received HTTP status code: ${response.status}`,
			};
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: error.message };
}

/** A node's `testedBy` for this credential type: a request, or the name of a `methods.credentialTest` function. */
function findTestedBy(
	credentialType: string,
	types: ReturnType<typeof createRegistry>['nodeTypes']['types'],
) {
	for (const type of Object.values(types)) {
		const nodeType = NodeHelpers.getVersionedNodeType(type);
		const testedBy = nodeType.description.credentials?.find(
			(credential) => credential.name === credentialType,
		)?.testedBy;
		if (typeof testedBy === 'string') return nodeType.methods?.credentialTest?.[testedBy];
		if (testedBy) return testedBy;
	}
	return undefined;
}
