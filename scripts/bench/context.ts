// What every benchmark section shares: one sandbox (with a movable clock), one real n8n loading this
// package, one token credential and a scratch folder. The report starts it once and hands it to each
// section, so n8n's start-up and warm-up are paid once and every ratio is measured in the same run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEMO_ACCOUNT, startSandbox, type Sandbox } from '../../test/sandbox/server.ts';
import { startN8n, type N8nInstance, type N8nMode } from '../lib/n8n-server.ts';
import { repoPaths } from '../lib/paths.ts';

export type CredentialRef = { id: string; name: string; type: string };

export interface BenchContext {
	root: string;
	/** Scratch folder; n8n may read files below it (Read/Write Files node). */
	work: string;
	sandbox: Sandbox;
	/** Moves the sandbox's clock (ms added to the real one). */
	setClockOffset(ms: number): void;
	n8n: N8nInstance;
	n8nVersion: string;
	/** cloudStorageTokenApi credential for the demo account. */
	credential: CredentialRef;
	account: { username: string; token: string };
	/** Another n8n, freshly started with its own credential, for figures that depend on the process's history (peak RSS). */
	freshN8n(options?: {
		mode?: N8nMode;
		env?: Record<string, string>;
	}): Promise<{ n8n: N8nInstance; credential: CredentialRef }>;
}

/** A section's result: a Markdown block for the report (heading, notes, table). */
export type Section = { title: string; markdown: string };

export async function startContext(
	root: string,
): Promise<BenchContext & { stop(): Promise<void> }> {
	const work = mkdtempSync(join(tmpdir(), 'bench-'));
	let offset = 0;
	const sandbox = await startSandbox({
		port: 0,
		dataDir: join(work, 'sandbox'),
		now: () => Date.now() + offset,
	});
	let n8n: N8nInstance | undefined;
	try {
		const paths = repoPaths(root);
		// Metrics on: the transfer section reads n8n's live heap size from /metrics.
		const launch = async (options: { mode?: N8nMode; env?: Record<string, string> } = {}) => {
			const instance = await startN8n({
				paths,
				mode: options.mode,
				env: { N8N_RESTRICT_FILE_ACCESS_TO: work, N8N_METRICS: 'true', ...options.env },
			});
			const created = await instance.client.createCredential('cloudStorageTokenApi', 'Bench', {
				baseUrl: sandbox.baseUrl,
				webUrl: sandbox.webUrl,
				user: DEMO_ACCOUNT.username,
				accessToken: DEMO_ACCOUNT.token,
			});
			return {
				n8n: instance,
				credential: { id: created.id, name: created.name, type: 'cloudStorageTokenApi' },
			};
		};
		const first = await launch();
		n8n = first.n8n;
		const n8nVersion = String(
			JSON.parse(readFileSync(join(paths.runtimeDir, 'node_modules/n8n/package.json'), 'utf8'))
				.version,
		);
		const started = n8n;
		return {
			root,
			work,
			sandbox,
			setClockOffset: (ms) => {
				offset = ms;
			},
			n8n,
			n8nVersion,
			credential: first.credential,
			account: { username: DEMO_ACCOUNT.username, token: DEMO_ACCOUNT.token },
			freshN8n: launch,
			stop: async () => {
				await started.stop();
				await sandbox.close();
				rmSync(work, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await n8n?.stop();
		await sandbox.close();
		rmSync(work, { recursive: true, force: true });
		throw error;
	}
}

/** Runs an imported workflow manually and returns n8n's own execution time of one node plus its output. */
export async function runNode(
	ctx: BenchContext,
	workflow: Record<string, unknown>,
	node: string,
	timeoutMs = 3_600_000,
) {
	try {
		return await runNodeOnce(ctx, workflow, node, timeoutMs);
	} catch (error) {
		// A REST call to n8n can meet a keep-alive socket n8n just closed (ECONNRESET, "fetch failed"):
		// that says nothing about the node, so the run is repeated once.
		if ((error as Error).message !== 'fetch failed') throw error;
		console.error(`${node}: n8n's REST connection was reset; running it again`);
		return await runNodeOnce(ctx, workflow, node, timeoutMs);
	}
}

async function runNodeOnce(
	ctx: BenchContext,
	workflow: Record<string, unknown>,
	node: string,
	timeoutMs: number,
) {
	const imported = await ctx.n8n.client.importWorkflow(workflow);
	const started = performance.now();
	const result = await ctx.n8n.client.runWorkflow(imported.id, { timeoutMs });
	const wallMs = performance.now() - started;
	if (result.status !== 'success')
		throw new Error(`${node} failed: ${JSON.stringify(result).slice(0, 800)}`);
	const runData = ((result.data.resultData as Record<string, unknown>).runData ?? {}) as Record<
		string,
		Array<{ executionTime?: number; startTime?: number }>
	>;
	const ms = Number(runData[node]?.[0]?.executionTime ?? NaN);
	/** When n8n started the node (epoch ms), so figures sampled inside n8n can be cut to the node's run. */
	const startTime = Number(runData[node]?.[0]?.startTime ?? NaN);
	return { ms, wallMs, startTime, result, items: result.nodes[node]?.[0]?.outputs[0] ?? [] };
}

export const table = (header: string[], rows: Array<Array<string | number>>) =>
	[
		`| ${header.join(' | ')} |`,
		`|${header.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
