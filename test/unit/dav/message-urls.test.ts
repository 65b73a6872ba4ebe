/**
 * DAV messages that name the credential's DAV URL show it without user info or a query string: the URL is the
 * user's, and whatever was pasted into it (a password, a token) must not reach a message.
 */
import { notDavServerError } from '../../../nodes/shared/dav/resource-kind';

describe('the DAV URL in a message', () => {
	it('a server that is not a DAV server is named by origin and path only', () => {
		const error = notDavServerError(
			'https://someone:s3cret@dav.example.com/remote/?token=t0ken',
			404,
		);
		expect(error.message).toBe(
			'The DAV URL https://dav.example.com/remote/ is not a CalDAV/CardDAV server: it answered 404 to PROPFIND',
		);
		expect(JSON.stringify(error)).not.toMatch(/s3cret|t0ken|someone/);
	});
});
