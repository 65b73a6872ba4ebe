// Shared by the transfer-path tests that talk to a loopback server.

/** A credential's body fields and header, as `fieldAuthentication` hands them to a transfer outside n8n's helper. */
export const fieldsAuthentication = async () => ({
	fields: [
		['user', 'u'],
		['user_access_token', 'secret'],
	] as Array<[string, string]>,
	headers: { 'x-extra': '1' },
});
