/** The public documentation the docs tools and `docs://` resources serve (a small published catalogue). */
export interface Doc {
	id: string;
	title: string;
	aliases: string[];
	text: string;
	published: boolean;
}

export const DOCS: readonly Doc[] = [
	{
		id: 'storage-api',
		title: 'Storage REST API',
		aliases: ['upload', 'download', 'folder', 'file', 'v2', 'rest'],
		text: 'The storage REST API: POST {base_url}/api_v2/<action> with form fields. Actions: create_folder, upload_file, download_file, get_folder_content, get_folder_info, get_file_info, rename_folder, rename_file, move_file, delete_file, delete_folder.',
		published: true,
	},
	{
		id: 'mcp-endpoint',
		title: 'MCP endpoint',
		aliases: ['mcp', 'model context protocol', 'json-rpc', 'agent', 'tools'],
		text: 'The read-only MCP endpoint: POST {base_url}/api/mcp with JSON-RPC 2.0. Tools: storage_get_root_folder, storage_list_folder, storage_get_folder_info, storage_get_file_info, storage_read_file, storage_search_files, storage_search_docs, storage_get_doc.',
		published: true,
	},
	{
		id: 'ai-api',
		title: 'AI API',
		aliases: ['ai', 'llm', 'generate', 'chat', 'model', 'ollama'],
		text: 'The hosted AI API: POST {ai_url}/api/generate and {ai_url}/api/chat with a Bearer token <user_id>:<token>. Six models; think levels low, medium, high.',
		published: true,
	},
	{
		id: 'dav',
		title: 'Calendars and address books (CalDAV/CardDAV)',
		aliases: ['caldav', 'carddav', 'calendar', 'contacts', 'ics', 'vcard'],
		text: 'CalDAV and CardDAV at {dav_url}: discover the principal with PROPFIND, then the calendar and address-book homes.',
		published: true,
	},
	{
		id: 'internal-roadmap',
		title: 'Internal roadmap',
		aliases: ['roadmap'],
		text: 'Not published.',
		published: false,
	},
];

export function docUrl(baseUrl: string, doc: Doc): string {
	return `${baseUrl}/docs/${doc.id}`;
}

/** Only published catalogue entries; anything else (unpublished, paths, other schemes) is not found. */
export function docByUri(uri: unknown): Doc | undefined {
	const match = typeof uri === 'string' ? /^docs:\/\/([a-z0-9-]+)$/.exec(uri) : null;
	return match ? DOCS.find((doc) => doc.id === match[1] && doc.published) : undefined;
}

/** Keyword search: every word of the query must appear in the title, text or aliases. */
export function searchDocs(query: string, limit: number): Doc[] {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	return DOCS.filter((doc) => {
		if (!doc.published) return false;
		const haystack = `${doc.title} ${doc.text} ${doc.aliases.join(' ')}`.toLowerCase();
		return words.every((word) => haystack.includes(word));
	}).slice(0, limit);
}
