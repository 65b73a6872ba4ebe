/**
 * The service's clock: timestamps and the `Date` of every answer come from the same clock (the store's),
 * which a test may set apart from the client's, as a real service's clock may run ahead or behind.
 */
import { boot, createFolder, uploadOk } from './helpers.ts';

it('dates answers and stamps files by its own clock, ten minutes behind the client', async () => {
	const offsetMs = -600_000;
	const sandbox = await boot({ now: () => Date.now() + offsetMs });
	try {
		const folder = await createFolder(sandbox);
		const before = Date.now();
		const response = await fetch(`${sandbox.baseUrl}/api_v2/get_folder_content`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ folder_hash: folder.folder_hash }),
		});
		const dated = Date.parse(response.headers.get('date') ?? '');
		expect(Math.abs(dated - (before + offsetMs))).toBeLessThan(60_000);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'x');
		expect(Math.abs(file.timestamp_uploaded * 1000 - (before + offsetMs))).toBeLessThan(60_000);
	} finally {
		await sandbox.close();
	}
});
