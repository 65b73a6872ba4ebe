/** The service's interfaces differ in error bodies and status meanings, so errors are mapped per kind. */
export type ApiKind = 'v2' | 'v1' | 'search' | 'dms' | 'mcp' | 'dav' | 'ai';

export const API_LABEL: Record<ApiKind, string> = {
	v2: 'storage API',
	v1: 'legacy storage API',
	search: 'search',
	dms: 'document-management API',
	mcp: 'MCP endpoint',
	dav: 'calendar/address-book server',
	ai: 'AI API',
};
