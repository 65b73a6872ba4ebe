// n8n's request helper (axios) bounds a request by its Timeout twice: a timer from the start until the head
// arrives, which jest's fake timers drive, and the socket's idle timer (`ClientRequest#setTimeout`), which Node
// runs on the wall clock whatever jest fakes. On a loaded machine that one fired in cases that end on I/O alone
// (the process held off the CPU for longer than the Timeout): a read was asked again, and its back-off waited on a
// clock no one moved. With this, the idle timer runs on the driven clock too, started again by every chunk the
// socket reads, as Node's is. Call it at the top of a test file that drives the clock.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

function drivenIdleTimer({ request }: { request: ClientRequest }): void {
	let timer: ReturnType<typeof setTimeout> | undefined;
	let watched: Socket | undefined;
	const touch = () => timer?.refresh();
	const stop = () => {
		clearTimeout(timer);
		timer = undefined;
		watched?.removeListener('data', touch);
	};
	const watch = (socket: Socket) => (watched = socket).on('data', touch);
	request.setTimeout = (ms: number, onTimeout?: () => void) => {
		stop();
		if (onTimeout) request.once('timeout', onTimeout);
		if (ms > 0) {
			timer = setTimeout(() => request.emit('timeout'), ms);
			if (request.socket) watch(request.socket);
			else request.once('socket', watch);
		}
		return request;
	};
	request.once('close', stop);
}

const listener = drivenIdleTimer as (message: unknown) => void;

export function driveHelperIdleTimer(): void {
	beforeAll(() => subscribe('http.client.request.created', listener));
	afterAll(() => unsubscribe('http.client.request.created', listener));
}
