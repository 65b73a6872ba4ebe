import { Readable } from 'node:stream';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	apiRequest,
	displayUrl,
	type ErrorContext,
	RAISE_TIMEOUT,
	type RawAnswer,
	type RequestContext,
	secondsText,
	unexpectedBodyError,
} from '../transport';
import { authenticatorOf } from './authenticators';
import { CREDENTIAL_CHECKS, type TestedCredential } from './credential-checks';
import { addressHint, urlFieldProblem } from './url-field';

/** A Test answers while the user waits in the form: far shorter than a node's default Timeout, and said so. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 30_000;

const TEST_NODE: INode = {
	id: 'credential-test',
	name: 'Credential Test',
	type: 'n8n-nodes-cloud-storage.credentialTest',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

type LegacyRequest = ICredentialTestFunctions['helpers']['request'];

/**
 * n8n's request helper as a Test may use it (a Test gets only n8n's legacy `request`): the path n8n's SSRF
 * protection and CLOUD_STORAGE_KEEP_ALIVE=false choose. The credential's own `authenticate` adds
 * its fields; n8n is told to follow no redirect, so nothing reaches another address.
 */
async function throughN8nHelper(
	request: LegacyRequest,
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<RawAnswer> {
	const sent = await authenticatorOf(credentialType)!(data, {
		...options,
		headers: { ...options.headers },
	});
	const headers = { ...(sent.headers as Record<string, string>) };
	let body = sent.body;
	if (body instanceof URLSearchParams) {
		body = body.toString();
		headers['content-type'] ??= 'application/x-www-form-urlencoded';
	} else if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
		body = JSON.stringify(body);
		headers['content-type'] ??= 'application/json';
	}
	const answer = (await request({
		uri: sent.url,
		method: sent.method,
		headers,
		body,
		qs: sent.qs,
		json: false,
		encoding: null,
		simple: false,
		resolveWithFullResponse: true,
		followRedirect: false,
		followAllRedirects: false,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: CREDENTIAL_TEST_TIMEOUT_MS,
	})) as { statusCode: number; headers: RawAnswer['headers']; body?: unknown };
	const bytes = Buffer.isBuffer(answer.body)
		? answer.body
		: Buffer.from(typeof answer.body === 'string' ? answer.body : '');
	return { statusCode: answer.statusCode, headers: answer.headers, body: Readable.from([bytes]) };
}

/** The transport's request context for one Test: its credential, a node to name in errors, n8n's helper. */
function testContext(
	test: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
): RequestContext {
	const helpers = {
		httpRequestWithAuthentication: async (type: string, options: IHttpRequestOptions) =>
			await throughN8nHelper(test.helpers.request, type, data, options),
	};
	return {
		getNode: () => TEST_NODE,
		getCredentials: async () => data,
		helpers,
	} as unknown as RequestContext;
}

function withStop(text: string): string {
	return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** An error of the transport (or a check) as one line: the cause, then the fix. */
function wording(error: unknown): string {
	const { message, description } = error as { message?: unknown; description?: unknown };
	const cause = typeof message === 'string' && message ? message : 'The test failed';
	return typeof description === 'string' && description
		? `${withStop(cause)} ${description}`
		: withStop(cause);
}

/**
 * A failure the transport did not word (no description): its first line, without a library's source path, and
 * what to check, so that a Test never answers with a bare code.
 */
function unworded(error: unknown, url: string, field: string): string | undefined {
	const { message, description } = error as { message?: unknown; description?: unknown };
	if (typeof description === 'string' && description) return undefined;
	const first = String(message ?? '')
		.split('\n')[0]
		.replace(/:?\.\.\/deps\/\S*/g, '')
		.trim();
	return `The Test's request to ${displayUrl(url)} failed${first ? `: ${withStop(first)}` : '.'} Check ${field}: its scheme (https:// or, on this machine only, http://), host and port, and the network between n8n and the server.`;
}

async function runCheck(
	test: ICredentialTestFunctions,
	credentialType: TestedCredential,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const check = CREDENTIAL_CHECKS[credentialType];
	const typed = String(data[check.urlKey] ?? '');
	// What the field's value alone shows is said before anything is sent.
	const problem = urlFieldProblem(check.urlField, typed);
	if (problem) return { status: 'Error', message: problem };
	const options = check.request(data);
	const hinted = (message: string) => {
		const hint = addressHint(check.urlField, typed, check.apiAtRoot, check.address);
		return hint ? `${message} ${hint}` : message;
	};
	const ctx = testContext(test, data);
	try {
		const answer = await apiRequest<string>(ctx, {
			...options,
			timeoutMs: CREDENTIAL_TEST_TIMEOUT_MS,
			// One attempt: the user is waiting, and a Test must not wait out back-offs.
			retry: { maxAttempts: 1 },
		});
		const header = (name: string) => {
			const value = answer.headers[name];
			return Array.isArray(value) ? value[0] : value;
		};
		const verdict = check.verdict(
			{
				status: answer.status,
				contentType: header('content-type') ?? '',
				text: answer.body ?? '',
				location: header('location'),
			},
			options.url,
		);
		if ('ok' in verdict) return { status: 'OK', message: withStop(verdict.ok) };
		if ('unexpected' in verdict) {
			const errorCtx: ErrorContext = { api: options.api };
			return {
				status: 'Error',
				message: hinted(wording(unexpectedBodyError(errorCtx, verdict.unexpected))),
			};
		}
		const message = `${withStop(verdict.failed)} ${verdict.fix}`;
		return { status: 'Error', message: verdict.address ? hinted(message) : message };
	} catch (error) {
		const bare = unworded(error, options.url, check.urlField);
		if (bare) return { status: 'Error', message: bare };
		// A Test has no Timeout option of its own: say what it waited and where a node's limit is set.
		const message = wording(error).replace(
			RAISE_TIMEOUT,
			`The Test waits ${secondsText(CREDENTIAL_TEST_TIMEOUT_MS)}; a node waits as long as its "Timeout" under Request Options.`,
		);
		return { status: 'Error', message };
	}
}

function testOf(credentialType: TestedCredential): ICredentialTestFunction {
	return async function (this: ICredentialTestFunctions, credential: ICredentialsDecrypted) {
		return await runCheck(this, credentialType, credential.data ?? {});
	};
}

/**
 * The credentials' Tests, for the nodes' `methods.credentialTest` (named by `testedBy`): each sends its one
 * request through the pack's transport, which follows no redirect, and words every failure with its cause and
 * fix. (A declarative `test` on the credential would go through n8n's helper, which follows redirects and adds
 * the credential again on the new address, and reports only a code or a status text.)
 */
export const credentialTest: Record<string, ICredentialTestFunction> = {
	testTokenCredential: testOf('cloudStorageTokenApi'),
	testPasswordCredential: testOf('cloudStoragePasswordApi'),
	testBearerCredential: testOf('cloudStorageBearerApi'),
	testDavCredential: testOf('cloudStorageDavApi'),
};
