/**
 * The credentials helper n8n's CLI puts in `additionalData` (packages/cli/src/credentials-helper.ts),
 * reduced to what a community node exercises, with the same behaviour:
 * - `authenticate`: the credential type's function form, or the generic form whose headers / qs / body /
 *   auth values are `={{$credentials.x}}` expressions resolved by the workflow's expression engine;
 * - `preAuthentication`: for a type with a hidden `expirable` property, calls the type's
 *   `preAuthentication` when that property is empty or `credentialsExpired` is set (n8n-core sets it after
 *   a 401), then merges the result into the stored credential (persisted) and into the in-memory copy;
 * - `getDecrypted`: decrypts, applies property defaults, resolves expressions in credential values.
 * Left out: credential overwrites, external secrets, dynamic (per-user) credentials, AI gateway, policies.
 */
import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, isExpression } from 'n8n-workflow';

import type { CredentialStore } from './credential-store';
import type { EngineCredentialTypes } from './node-types';

// n8n resolves credential expressions outside a run against a placeholder node of an unknown type.
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};
const mockNodeTypes = {
	getByName: () => undefined,
	getByNameAndVersion: () => undefined,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

export class EngineCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialTypes: EngineCredentialTypes,
		private readonly store: CredentialStore,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.credentialTypes.getByName(credentialType);
		if (!type.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getProperties(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Generic credential authentication needs the workflow and node');
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, string>>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const resolvedKey = this.resolveValue(key, credentials, workflow, node);
					target[outerKey] ??= {};
					target[outerKey][resolvedKey] = this.resolveValue(value, credentials, workflow, node);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	private resolveValue(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	) {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;

		// n8n's credential test runs with this mock node and always refreshes.
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials)
			return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		if (!nodeCredentials) return undefined;
		// Persist, but never overwrite a field stored as an expression with this run's resolved value.
		const stored = await (await this.store.get(nodeCredentials, credentialType.name)).getData();
		const toPersist: ICredentialDataDecryptedObject = { ...stored };
		for (const [key, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
			if (key === expirable.name || !isExpression(stored[key])) toPersist[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, toPersist);
		return Object.assign(credentials, output);
	}

	/** In-memory transformation without the expirable guard or persistence (used by OAuth2 requests). */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject | undefined) ?? undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		return await this.store.get(nodeCredentials, type);
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		await this.store.save(type, data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		const stored = await (await this.store.get(nodeCredentials, type)).getData();
		await this.store.save(type, { ...stored, oauthTokenData: data.oauthTokenData });
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const original = await (await this.store.get(nodeCredentials, type)).getData();
		if (raw === true) return original;
		return this.applyDefaults(
			additionalData,
			original,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Property defaults for what the user left unset, then expressions resolved (n8n also applies overwrites). */
	applyDefaults(
		additionalData: IWorkflowExecuteAdditionalData,
		original: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		let data = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) data.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			data = workflow.expression.getParameterValue(
				data as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			data = workflow.expression.getComplexParameterValue(
				mockNode,
				data as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				data,
			) as ICredentialDataDecryptedObject;
		}
		return data;
	}
}
