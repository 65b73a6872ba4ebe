/**
 * The transport tells the credential how a request wants to be authenticated through this header,
 * which the credential's authenticate function removes before the request leaves n8n:
 * - `fields`: the credential's normal method (body fields for tokens, HTTP Basic for passwords);
 * - `session`: the session cookie obtained by the credential's pre-authentication (search, GET-only
 *   legacy scripts), so that no secret has to go into a query string.
 */
export const MODE_MARKER_HEADER = 'x-n8n-cloud-storage-auth';

export type AuthMode = 'fields' | 'session';
