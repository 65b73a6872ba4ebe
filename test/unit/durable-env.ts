/** Runs `body` with n8n's durable scheduler and durable poll cursors switched on, as n8n 2.41 reads them. */
export async function withDurableCursors<T>(body: () => Promise<T>): Promise<T> {
	const names = [
		'N8N_POLLER_DURABLE_CURSORS_ENABLED',
		'N8N_SCHEDULER_ENABLED',
		'N8N_SCHEDULER_POLL_TRIGGERS_ENABLED',
	];
	const before = names.map((name) => process.env[name]);
	for (const name of names) process.env[name] = 'true';
	try {
		return await body();
	} finally {
		names.forEach((name, i) => {
			if (before[i] === undefined) delete process.env[name];
			else process.env[name] = before[i];
		});
	}
}
