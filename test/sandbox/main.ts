import { SEEDED_ACCOUNTS } from './accounts.ts';
import { startSandbox } from './server.ts';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

startSandbox({
	port: Number(option('--port') ?? 0),
	host: option('--host'),
	dataDir: option('--data-dir'),
	webUrl: option('--web-url'),
}).then((sandbox) => {
	process.stdout.write(
		`${JSON.stringify({
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			accounts: SEEDED_ACCOUNTS.map(({ id, username, email, password, token, plan }) => ({
				id,
				username,
				email,
				password,
				token,
				plan,
			})),
		})}\n`,
	);

	const stop = () => {
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGTERM', stop);
	process.once('SIGINT', stop);
});
