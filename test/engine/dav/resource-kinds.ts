/**
 * The Depth-0 PROPFIND every Calendar/Contacts delete and collection update sends first to read its target's
 * `resourcetype`, answered as a server would for each kind of resource.
 */
import nock from 'nock';

export type MockedKind = 'calendar' | 'addressbook' | 'object' | 'principal' | 'collection';

const TYPES: Record<MockedKind, string> = {
	calendar: '<D:collection/><C:calendar/>',
	addressbook: '<D:collection/><A:addressbook/>',
	object: '',
	principal: '<D:collection/><D:principal/>',
	collection: '<D:collection/>',
};

export const kindAnswer = (path: string, kind: MockedKind) =>
	`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="urn:ietf:params:xml:ns:carddav"><D:response><D:href>${path}</D:href><D:propstat><D:prop><D:resourcetype>${TYPES[kind]}</D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`;

/** One PROPFIND Depth 0 of `path` asking for resourcetype, answered as `kind`. */
export function kindIs(base: string, path: string, kind: MockedKind): nock.Scope {
	return nock(base)
		.intercept(path, 'PROPFIND', (body: string) => String(body).includes('resourcetype'))
		.matchHeader('depth', '0')
		.reply(207, kindAnswer(path, kind));
}
