// The workflows the transfer benchmark runs: the Storage node and n8n's HTTP Request node doing the same
// upload (from a file read off disk) and the same download, each as one node whose time n8n records.
type Credential = { id: string; name: string; type: string };
type Account = { username: string; token: string };

interface Options {
	file: string;
	folderHash: string;
	baseUrl: string;
	account: Account;
	credential: Credential;
	/** For a timed upload: memory filled and freed between reading the file and the upload (see warmCode). */
	warm?: Warm;
}

/** A file of `blocks` × 8 MiB written at `path` with dd, then deleted. */
export type Warm = { path: string; blocks: number };

const start = {
	id: 'b0000000-0000-4000-8000-000000000001',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function node(
	name: string,
	type: string,
	typeVersion: number,
	index: number,
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
) {
	return {
		id: `b0000000-0000-4000-8000-${String(index + 10).padStart(12, '0')}`,
		name,
		type,
		typeVersion,
		position: [index * 220, 0],
		parameters,
		...extra,
	};
}

function linear(name: string, nodes: Array<Record<string, unknown>>) {
	const all = [start, ...nodes];
	const connections = Object.fromEntries(
		all
			.slice(0, -1)
			.map((current, i) => [
				current.name,
				{ main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	return { name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

/**
 * A Code node that hands on its items after writing and deleting a file (n8n needs
 * NODE_FUNCTION_ALLOW_BUILTIN=child_process): the upload then writes into memory just freed, as curl's does
 * (see warmPages in storage-transfer.ts). Its time is its own, not the upload node's.
 */
function warmCode({ path, blocks }: Warm) {
	const script = 'dd if=/dev/zero of="$1" bs=8M count="$2" status=none; rm -f "$1"';
	return node('Warm Memory', 'n8n-nodes-base.code', 2, 3, {
		mode: 'runOnceForAllItems',
		language: 'javaScript',
		jsCode: [
			"const { execFileSync } = require('child_process');",
			`execFileSync('sh', ['-c', ${JSON.stringify(script)}, 'warm', ${JSON.stringify(path)}, '${blocks}']);`,
			'return $input.all();',
		].join('\n'),
	});
}

export function transferWorkflows({
	file,
	folderHash,
	baseUrl,
	account,
	credential,
	warm,
}: Options) {
	const readFile = node('Read File', 'n8n-nodes-base.readWriteFile', 1, 1, {
		operation: 'read',
		fileSelector: file,
		options: {},
	});
	const beforeUpload = warm ? [readFile, warmCode(warm)] : [readFile];
	const storage = (name: string, parameters: Record<string, unknown>) =>
		node(
			name,
			'n8n-nodes-cloud-storage.cloudStorage',
			1,
			2,
			{ authentication: 'tokenApi', ...parameters },
			{
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			},
		);
	const http = (name: string, parameters: Record<string, unknown>) =>
		node(name, 'n8n-nodes-base.httpRequest', 4.2, 2, parameters);
	const auth = [
		{ name: 'user', value: account.username },
		{ name: 'user_access_token', value: account.token },
	];
	const fileFlow = (hash: string) => ({ __rl: true, mode: 'id', value: hash });
	return {
		storageUpload: linear('Bench: Storage upload', [
			...beforeUpload,
			storage('Upload', {
				resource: 'file',
				operation: 'upload',
				folder: { __rl: true, mode: 'id', value: folderHash },
				binaryPropertyName: 'data',
				options: {},
			}),
		]),
		httpUpload: linear('Bench: HTTP Request upload', [
			...beforeUpload,
			http('HTTP Upload', {
				method: 'POST',
				url: `${baseUrl}/api_v2/upload_file`,
				sendBody: true,
				contentType: 'multipart-form-data',
				bodyParameters: {
					parameters: [
						{ parameterType: 'formData', name: 'folder_hash', value: folderHash },
						...auth.map((field) => ({ parameterType: 'formData', ...field })),
						{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' },
					],
				},
				options: {},
			}),
		]),
		storageDownload: (hash: string) =>
			linear('Bench: Storage download', [
				storage('Download', {
					resource: 'file',
					operation: 'download',
					file: fileFlow(hash),
					binaryPropertyName: 'data',
				}),
			]),
		httpDownload: (hash: string) =>
			linear('Bench: HTTP Request download', [
				http('HTTP Download', {
					method: 'POST',
					url: `${baseUrl}/api_v2/download_file`,
					sendBody: true,
					contentType: 'form-urlencoded',
					bodyParameters: { parameters: [{ name: 'file_hash', value: hash }, ...auth] },
					options: {
						response: { response: { responseFormat: 'file', outputPropertyName: 'data' } },
					},
				}),
			]),
	};
}
