import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as docs from './actions/docs/Docs.resource';
import * as resource from './actions/resource/Resource.resource';
import * as server from './actions/server/Server.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import * as tool from './actions/tool/Tool.resource';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageMcp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage MCP',
		name: 'cloudStorageMcp',
		icon: {
			light: 'file:../../icons/cloudStorageMcp.svg',
			dark: 'file:../../icons/cloudStorageMcp.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Read files and folders and search the API documentation through the service's read-only MCP endpoint",
		defaults: { name: 'Cloud Storage MCP' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'cloudStorageBearerApi',
				required: true,
				testedBy: 'testBearerCredential',
				displayOptions: { show: { authentication: ['bearerApi'] } },
			},
		],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{
						name: 'Bearer Token',
						value: 'bearerApi',
						description: "Needed for the account's files and folders",
					},
					{
						name: 'None (Public Docs Only)',
						value: 'none',
						description: 'Documentation search and reading need no credential',
					},
				],
				default: 'bearerApi',
			},
			{
				displayName: 'Base URL',
				name: 'baseUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://api.example.com',
				description: "The service's API address; the MCP endpoint is {base_url}/api/mcp",
				displayOptions: { show: { authentication: ['none'] } },
			},
			{
				displayName: 'Protocol Version',
				name: 'protocolVersion',
				type: 'options',
				options: [
					{ name: '2026-07-28 (Per-Request, No Handshake)', value: '2026-07-28' },
					{ name: '2025-11-25 (Handshake)', value: '2025-11-25' },
					{ name: '2025-06-18 (Handshake)', value: '2025-06-18' },
					{ name: '2025-03-26 (Handshake)', value: '2025-03-26' },
				],
				default: '2026-07-28',
				description:
					'The MCP revision to speak. 2026-07-28 sends one request per call; the older revisions first run the initialize handshake, once per node run.',
			},
			{
				displayName: 'Max Rate-Limit Wait (Seconds)',
				name: 'maxRateLimitWait',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 60,
				description:
					'When the endpoint answers 429, the node waits the retry time it names and asks again, if that fits within this many seconds per request; a longer retry time fails at once, naming it. The documented windows are per minute (60 s) and per hour.',
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [
					{ name: 'Documentation', value: 'docs' },
					{ name: 'Resource', value: 'resource' },
					{ name: 'Server', value: 'server' },
					{ name: 'Tool', value: 'tool' },
				]),
				default: 'tool',
			},
			...docs.description,
			...resource.description,
			...server.description,
			...tool.description,
			requestOptionsField,
		],
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
