/**
 * Bad input for Search, E-Signature, AI and MCP: queries, dates, e-mails, URLs, JSON and model choices are
 * checked before any request; malformed answers give a clear error.
 */
import nock from 'nock';

import { AI, badInputSuite, BASE, CREDENTIALS, rl, WEB, type BadInput } from './harness';

const search = 'cloudStorageSearch';
const esign = 'cloudStorageESignature';
const ai = 'cloudStorageAi';
const mcp = 'cloudStorageMcp';
const sig = (parameters: Record<string, unknown>) => ({ resource: 'signature', ...parameters });
const item = (parameters: Record<string, unknown>) => ({ resource: 'item', ...parameters });
const generate = (parameters: Record<string, unknown> = {}) => ({
	resource: 'text',
	operation: 'generate',
	model: 'qwen3:8b',
	prompt: 'Say hi',
	...parameters,
});
const chat = (messagesJson: string) => ({
	resource: 'text',
	operation: 'chat',
	model: 'gemma3n:12b',
	messagesSource: 'json',
	messagesJson,
});

const cases: BadInput[] = [
	// Search
	{
		name: 'search query of one character',
		node: search,
		parameters: item({ operation: 'search', query: 'a' }),
		error: /Query "a" is too short/,
	},
	{
		name: 'blank search query',
		node: search,
		parameters: item({ operation: 'search', query: '={{ " " }}' }),
		error: /Query is empty/,
	},
	{
		name: 'page size over 1000',
		node: search,
		parameters: item({ operation: 'search', query: 'ab', options: { pageSize: 1001 } }),
		error: /Page size must be a whole number from 1 to 1000/,
	},
	{
		name: 'page size as a fraction',
		node: search,
		parameters: item({ operation: 'search', query: 'ab', options: { pageSize: 2.5 } }),
		error: /Page size must be a whole number/,
	},
	{
		name: 'search folder hash with a slash',
		node: search,
		parameters: item({ operation: 'search', query: 'ab', folder: rl('a/b') }),
		error: /"a\/b" is not a folder hash/,
	},
	{
		name: 'search JSON that is malformed',
		node: search,
		parameters: item({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: '{"Mode": "simple"',
		}),
		error: /search JSON is not valid JSON/,
	},
	{
		name: 'search JSON with an unknown section',
		node: search,
		parameters: item({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: '{"Mode": "simple", "Query": "ab", "Types": {}, "Sections": {"MINE": true}}',
		}),
		error: /unknown key "MINE"/,
	},
	{
		name: 'search with no section',
		node: search,
		parameters: item({ operation: 'fullSearch', query: 'ab', sections: [] }),
		error: /Choose at least one section/,
	},
	{
		name: 'a search answer that is an HTML page',
		node: search,
		parameters: item({ operation: 'search', query: 'ab' }),
		error: /HTML page/,
		answer: () => {
			nock(WEB)
				.persist()
				.post('/ajax/search.php')
				.reply(200, '<html><body>Please log in</body></html>', { 'Content-Type': 'text/html' });
		},
	},

	// E-Signature
	{
		name: 'signature date that is not a date',
		node: esign,
		parameters: sig({ operation: 'getAll', file: rl('Fh1'), filters: { fromDate: '1.3.2026' } }),
		error: /From Date "1.3.2026" is not a date/,
	},
	{
		name: 'signature dates in the wrong order',
		node: esign,
		parameters: sig({
			operation: 'getAll',
			file: rl('Fh1'),
			filters: { fromDate: '2026-03-02', toDate: '2026-03-01' },
		}),
		error: /From Date is after To Date/,
	},
	{
		name: 'signer e-mail without a domain',
		node: esign,
		parameters: sig({ operation: 'request', file: rl('Fh1'), emails: 'anna@example' }),
		error: /"anna@example" is not an e-mail address/,
	},
	{
		name: 'no signer e-mail',
		node: esign,
		parameters: sig({ operation: 'request', file: rl('Fh1'), emails: '={{ " , " }}' }),
		error: /no e-mail address given/,
	},
	{
		name: 'oversized signer e-mail',
		node: esign,
		parameters: sig({ operation: 'request', file: rl('Fh1'), emails: `${'a'.repeat(5000)}@` }),
		error: /is not an e-mail address/,
	},
	{
		name: 'callback that is not a URL',
		node: esign,
		parameters: sig({ operation: 'createSigningPage', file: rl('Fh1'), callbackUrl: 'not a url' }),
		error: /"not a url" is not a URL/,
	},
	{
		name: 'callback over ftp',
		node: esign,
		parameters: sig({
			operation: 'createSigningPage',
			file: rl('Fh1'),
			callbackUrl: 'ftp://n8n.example.test/w',
		}),
		error: /must use https/,
	},
	{
		name: 'signature file hash with a space',
		node: esign,
		parameters: sig({ operation: 'getAll', file: rl('a b') }),
		error: /"a b" is not a file hash/,
	},

	// AI
	{
		name: 'empty prompt',
		node: ai,
		parameters: generate({ prompt: '  ' }),
		error: /prompt is empty/,
	},
	{
		name: 'JSON schema that is not JSON',
		node: ai,
		parameters: generate({ outputFormat: 'jsonSchema', jsonSchema: '{nope' }),
		error: /JSON schema is not valid JSON/,
	},
	{
		name: 'empty custom model id',
		node: ai,
		parameters: generate({ model: 'custom', customModel: ' ' }),
		error: /No model id given/,
	},
	{
		name: 'a binary that is not an image',
		node: ai,
		parameters: generate({ model: 'gemma3n:12b', images: 'data' }),
		binary: { content: '%PDF', fileName: 'a.pdf', mimeType: 'application/pdf' },
		error: /is not an image \(application\/pdf\)/,
	},
	{
		name: 'chat messages as malformed JSON',
		node: ai,
		parameters: chat('[{"role": "user", "content": "x"'),
		error: /messages JSON is not valid JSON/,
	},
	{
		name: 'chat messages that are an object',
		node: ai,
		parameters: chat('{"role": "user"}'),
		error: /must be an array/,
	},
	{
		name: 'chat message with an unknown role',
		node: ai,
		parameters: chat('[{"role": "robot", "content": "x"}]'),
		error: /Message 1 has role "robot"/,
	},
	{
		name: 'chat message images not base64',
		node: ai,
		parameters: chat('[{"role": "user", "content": "x", "images": ["%%%"]}]'),
		error: /not base64/,
	},
	{
		name: 'credential without an AI URL',
		node: ai,
		parameters: generate(),
		credentials: { cloudStorageBearerApi: { ...CREDENTIALS.cloudStorageBearerApi, aiUrl: '' } },
		error: /has no AI URL/,
	},
	{
		name: 'an AI answer cut off mid-JSON',
		node: ai,
		parameters: generate({ model: 'custom', customModel: 'x:1b' }),
		error: /JSON|plain text/i,
		answer: () => {
			nock(AI)
				.persist()
				.post('/api/generate')
				.reply(200, '{"model": "x:1b", "response": "Hel', { 'Content-Type': 'application/json' });
		},
	},

	// MCP
	{
		name: 'unknown MCP protocol version',
		node: mcp,
		parameters: { protocolVersion: '2024-01-01', resource: 'tool', operation: 'getAll' },
		error: /Unsupported MCP protocol version "2024-01-01"/,
	},
	{
		name: 'tool arguments that are not JSON',
		node: mcp,
		parameters: {
			resource: 'tool',
			operation: 'call',
			tool: 'storage_search_files',
			arguments: '{oops',
		},
		error: /arguments are not valid JSON/,
	},
	{
		name: 'tool arguments that are an array',
		node: mcp,
		parameters: {
			resource: 'tool',
			operation: 'call',
			tool: 'storage_search_files',
			arguments: '[1]',
		},
		error: /must be a JSON object/,
	},
	{
		name: 'tool arguments over 1 MB',
		node: mcp,
		parameters: {
			resource: 'tool',
			operation: 'call',
			tool: 'storage_search_files',
			arguments: JSON.stringify({ query: 'x'.repeat(1_000_001) }),
		},
		error: /over the endpoint's 1 MB limit/,
	},
	{
		name: 'empty docs search',
		node: mcp,
		parameters: { resource: 'docs', operation: 'search', query: ' ' },
		error: /search query is empty/,
	},
	{
		name: 'docs URI of another scheme',
		node: mcp,
		parameters: { resource: 'docs', operation: 'get', uri: 'file:///etc/passwd' },
		error: /is not a docs:\/\/ URI/,
	},
	{
		name: 'resource URI without a scheme',
		node: mcp,
		parameters: { resource: 'resource', operation: 'read', uri: '/etc/passwd' },
		error: /is not a resource URI/,
	},
	{
		name: 'MCP base URL with a query string',
		node: mcp,
		parameters: { resource: 'tool', operation: 'getAll' },
		credentials: {
			cloudStorageBearerApi: { ...CREDENTIALS.cloudStorageBearerApi, baseUrl: `${BASE}/?token=x` },
		},
		error: /must not contain a query string/,
	},
	{
		name: 'an MCP answer that is not JSON-RPC',
		node: mcp,
		parameters: { resource: 'docs', operation: 'get', uri: 'docs://a' },
		error: /JSON|HTML|JSON-RPC/i,
		answer: () => {
			nock(BASE)
				.persist()
				.post('/api/mcp')
				.reply(200, '<html>gateway</html>', { 'Content-Type': 'text/html' });
		},
	},
];

badInputSuite(cases);
