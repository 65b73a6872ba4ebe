/**
 * Scripts documented as GET also take POST: the authenticator prefers credentials in a POST body
 * ("GET discouraged"), and a client should never need to put them in a URL.
 */
export const GET_SCRIPT = ['GET', 'POST'];
