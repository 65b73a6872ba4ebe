/**
 * The Contacts node through n8n's engine against a real Radicale: address books, contact CRUD with ETags,
 * name search (case-insensitive, non-ASCII), a 412 conflict, and a vCard from another client keeping its
 * unknown properties through an update.
 */
import type { IDataObject } from 'n8n-workflow';

import { byUrl, CONTACTS, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';

describe.each(DAV_SERVERS)('$name', (server) => {
	let radicale: DavServer;
	let book: string;
	beforeAll(async () => {
		radicale = await server.start();
		book = await radicale.mkaddressbook('friends', { displayName: 'Friends' });
	});
	afterAll(async () => await radicale?.stop());

	const run = (parameters: IDataObject, options?: Parameters<typeof runDavNode>[3]) =>
		runDavNode(radicale, CONTACTS, parameters, options);

	it('lists address books', async () => {
		const { json, error } = await run({ resource: 'addressBook', operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(json).toEqual([
			expect.objectContaining({
				url: book,
				displayName: 'Friends',
				supportedReports: expect.arrayContaining(['addressbook-multiget', 'sync-collection']),
			}),
		]);
	});

	it('creates, renames and deletes an address book (extended MKCOL), reporting what the server did not store', async () => {
		const created = await run({
			resource: 'addressBook',
			operation: 'create',
			displayName: 'Clients',
			additionalFields: { description: 'Paying customers' },
		});
		expect(created.error).toBeUndefined();
		expect(created.json[0]).toMatchObject({
			displayName: 'Clients',
			url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/.+\/[0-9a-f-]{36}\/$/),
		});
		expect(created.json[0]).toMatchObject({ description: 'Paying customers', notApplied: [] });
		const url = String(created.json[0].url);
		const renamed = await run({
			resource: 'addressBook',
			operation: 'update',
			addressBook: byUrl(url),
			displayName: 'Customers',
		});
		expect(renamed.error).toBeUndefined();
		expect(renamed.json[0]).toMatchObject({ displayName: 'Customers', notApplied: [] });
		const deleted = await run({
			resource: 'addressBook',
			operation: 'delete',
			addressBook: byUrl(url),
		});
		expect(deleted.error).toBeUndefined();
		expect(deleted.json).toEqual([{ deleted: true, url, outcome: 'applied' }]);
		const listed = await run({ resource: 'addressBook', operation: 'getAll' });
		expect(listed.json.map((item) => item.url)).not.toContain(url);
	});

	it('creates, searches, lists, gets, updates and deletes contacts', async () => {
		const created = await run({
			resource: 'contact',
			operation: 'create',
			addressBook: byUrl(book),
			fullName: 'Zoë Müller-Łukasiewicz',
			additionalFields: {
				givenName: 'Zoë',
				familyName: 'Müller-Łukasiewicz',
				emails: { entries: [{ value: 'zoe@example.com', type: 'work' }] },
				phones: { entries: [{ value: '+49 30 123', type: 'cell' }] },
				organization: 'ACME',
				title: 'CTO',
				addresses: {
					entries: [
						{
							street: 'Hauptstraße 1',
							city: 'Köln',
							postalCode: '50667',
							country: 'DE',
							type: 'work',
						},
					],
				},
				birthday: '1990-05-17',
				note: 'A long note that is certainly longer than seventy-five octets so the line must be folded, ünïcödé.',
			},
			options: { includeRaw: true },
		});
		expect(created.error).toBeUndefined();
		const contact = created.json[0];
		expect(contact).toMatchObject({
			fullName: 'Zoë Müller-Łukasiewicz',
			givenName: 'Zoë',
			familyName: 'Müller-Łukasiewicz',
			emails: [{ value: 'zoe@example.com', type: 'work' }],
			phones: [{ value: '+49 30 123', type: 'cell' }],
			organization: 'ACME',
			title: 'CTO',
			birthday: '1990-05-17',
			addresses: [expect.objectContaining({ street: 'Hauptstraße 1', city: 'Köln' })],
		});
		expect(String(contact.url)).toMatch(/\.vcf$/);
		expect(String(contact.vCard)).toMatch(/^BEGIN:VCARD\r\nVERSION:3.0\r\n/);

		await run({
			resource: 'contact',
			operation: 'create',
			addressBook: byUrl(book),
			fullName: 'Bob Builder',
		});

		const found = await run({
			resource: 'contact',
			operation: 'search',
			addressBook: byUrl(book),
			query: 'müller',
		});
		expect(found.json.map((item) => item.fullName)).toEqual(['Zoë Müller-Łukasiewicz']);

		const all = await run({ resource: 'contact', operation: 'getAll', addressBook: byUrl(book) });
		expect(all.json.map((item) => item.fullName).sort()).toEqual([
			'Bob Builder',
			'Zoë Müller-Łukasiewicz',
		]);

		const got = await run({ resource: 'contact', operation: 'get', contactUrl: contact.url });
		expect(got.json[0]).toMatchObject({ url: contact.url, etag: contact.etag, uid: contact.uid });

		const updated = await run({
			resource: 'contact',
			operation: 'update',
			contactUrl: contact.url,
			updateFields: {
				title: 'CEO',
				emails: { entries: [{ value: 'zoe@acme.example', type: 'home' }] },
			},
			options: { etag: contact.etag },
		});
		expect(updated.error).toBeUndefined();
		expect(updated.json[0]).toMatchObject({
			title: 'CEO',
			emails: [{ value: 'zoe@acme.example', type: 'home' }],
			organization: 'ACME',
			phones: [{ value: '+49 30 123', type: 'cell' }],
		});

		const stale = await run({
			resource: 'contact',
			operation: 'update',
			contactUrl: contact.url,
			updateFields: { title: 'x' },
			options: { etag: contact.etag },
		});
		expect(stale.error?.message).toMatch(/contact changed on the server/);
		expect(stale.error?.description).toContain(String(updated.json[0].etag));

		const staleDelete = await run({
			resource: 'contact',
			operation: 'delete',
			contactUrl: contact.url,
			options: { etag: contact.etag },
		});
		expect(staleDelete.error).toMatchObject({ httpCode: '412' });
		const deleted = await run({
			resource: 'contact',
			operation: 'delete',
			contactUrl: contact.url,
			options: { etag: updated.json[0].etag },
		});
		expect(deleted.json[0]).toMatchObject({ deleted: true });
		const after = await run({ resource: 'contact', operation: 'getAll', addressBook: byUrl(book) });
		expect(after.json.map((item) => item.fullName)).toEqual(['Bob Builder']);
	});

	it('keeps unknown vCard properties written by another client through an update', async () => {
		const foreign = [
			'BEGIN:VCARD',
			'VERSION:3.0',
			'UID:foreign-contact-1',
			'FN:Ada Lovelace',
			'N:Lovelace;Ada;;;',
			'X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/ada',
			'X-ABLabel:Friend',
			'item1.EMAIL;TYPE=INTERNET:ada@example.com',
			'item1.X-ABLabel:private',
			'CATEGORIES:Math,History',
			'END:VCARD',
			'',
		].join('\r\n');
		expect(
			(
				await radicale.send('PUT', `${book}foreign.vcf`, {
					body: foreign,
					headers: { 'content-type': 'text/vcard' },
				})
			).status,
		).toBe(201);
		const updated = await run({
			resource: 'contact',
			operation: 'update',
			contactUrl: `${book}foreign.vcf`,
			updateFields: { organization: 'Analytical Engines' },
		});
		expect(updated.error).toBeUndefined();
		// Radicale itself re-serialises (property names upper-cased, order changed): compare ignoring case.
		const stored = (await radicale.send('GET', `${book}foreign.vcf`)).body.toLowerCase();
		expect(stored).toMatch(/\r\nrev:[0-9t:z-]+\r\n/);
		for (const kept of [
			'ORG:Analytical Engines',
			'X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/ada',
			'item1.X-ABLabel:private',
			'item1.EMAIL;TYPE=INTERNET:ada@example.com',
			'X-ABLabel:Friend',
			'CATEGORIES:Math,History',
			'UID:foreign-contact-1',
		]) {
			expect(stored).toContain(kept.toLowerCase());
		}
	});

	it('refuses a contact URL on another server before sending the credential there', async () => {
		const { error } = await run({
			resource: 'contact',
			operation: 'get',
			contactUrl: 'https://elsewhere.example/a.vcf',
		});
		expect(error?.message).toMatch(/not on the DAV server/);
	});
});
