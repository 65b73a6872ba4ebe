// A throw-away Redis for n8n's queue mode: loopback only, its own port and folder, nothing persisted.
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort, spawnLogged, waitUntil, type ManagedProcess } from './processes.ts';

export type Redis = { port: number; process: ManagedProcess; stop(): Promise<void> };

function answersPing(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		socket.setTimeout(1000);
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (data) => {
			resolve(data.toString().startsWith('+PONG'));
			socket.destroy();
		});
		socket.on('error', () => resolve(false));
		socket.on('timeout', () => {
			resolve(false);
			socket.destroy();
		});
	});
}

export async function startRedis(dir: string): Promise<Redis> {
	const port = await freePort();
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--dir',
		dir,
		'--save',
		'',
		'--appendonly',
		'no',
	];
	const child = spawnLogged('redis-server', 'redis-server', args, {
		env: process.env,
		logFile: join(dir, 'redis.log'),
	});
	await waitUntil(`redis on port ${port}`, () => answersPing(port), {
		process: child,
		timeoutMs: 15_000,
	});
	return { port, process: child, stop: () => child.stop() };
}
