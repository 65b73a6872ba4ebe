import type { SandboxConfig } from './config.ts';
import { randomSessionId } from './ids.ts';

interface Session {
	accountId: number;
	expiresAt: number;
}

/** In-memory PHP-like sessions with a sliding expiry. */
export class Sessions {
	private readonly sessions = new Map<string, Session>();
	private readonly config: SandboxConfig;
	private readonly now: () => number;

	constructor(config: SandboxConfig, now: () => number) {
		this.config = config;
		this.now = now;
	}

	create(accountId: number): string {
		const id = randomSessionId();
		this.sessions.set(id, { accountId, expiresAt: this.now() + this.config.sessionTtlMs });
		return id;
	}

	/** The account of a live session; using a session extends it. */
	accountId(sessionId: string): number | undefined {
		const session = this.sessions.get(sessionId);
		if (!session) return undefined;
		if (session.expiresAt <= this.now()) {
			this.sessions.delete(sessionId);
			return undefined;
		}
		session.expiresAt = this.now() + this.config.sessionTtlMs;
		return session.accountId;
	}

	expireAll(): number {
		const count = this.sessions.size;
		this.sessions.clear();
		return count;
	}

	/** Drops sessions of one account (e.g. after a password change in a test). */
	expireAccount(accountId: number): void {
		for (const [id, session] of this.sessions)
			if (session.accountId === accountId) this.sessions.delete(id);
	}
}
