/** Runtime switches; changeable in-process or through `POST /__sandbox/config`. */
export interface SandboxConfig {
	/** Sliding session lifetime (the spec does not give one; PHP's default is 24 minutes). */
	sessionTtlMs: number;
	/** Anonymous `api/get_file_list_for_upload.php`: per-IP fixed window, and the documented ~2 s delay. */
	anonymousListing: { limit: number; windowMs: number; delayMs: number };
	/** Largest urlencoded/JSON body read into memory (uploads are streamed to disk instead). */
	maxFormBytes: number;
	/** ISO code reported as `current_location_country_code` (loopback has no country). */
	countryCode: string;
	/**
	 * HTTP status of the search's answer to a missing or expired session. The documents say only that
	 * search errors answer `status: error`; 401 (the default) or 200, both with `status: error`.
	 */
	searchSessionErrorStatus: 200 | 401;
}

export function defaultConfig(): SandboxConfig {
	return {
		sessionTtlMs: 24 * 60 * 1000,
		anonymousListing: { limit: 30, windowMs: 60_000, delayMs: 2000 },
		maxFormBytes: 10 * 1024 * 1024,
		countryCode: 'lv',
		searchSessionErrorStatus: 401,
	};
}

/** Deep-merges a JSON patch into the config, ignoring unknown keys. */
export function patchConfig(config: SandboxConfig, patch: Record<string, unknown>): void {
	const target = config as unknown as Record<string, unknown>;
	for (const [key, value] of Object.entries(patch)) {
		if (!(key in target)) continue;
		const current = target[key];
		if (current && typeof current === 'object' && value && typeof value === 'object')
			Object.assign(current, value);
		else target[key] = value;
	}
}
