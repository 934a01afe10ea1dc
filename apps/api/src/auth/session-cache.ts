import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ProjectionProgress } from '../projections/projection-progress';
import type { Principal } from './principal';

interface Entry {
  principal: Principal;
  validUntil: number;
}

/** account events that change nothing about an open session's access */
const QUIET_ACCOUNT_EVENTS = new Set(['AccountSignedIn', 'SignInFailed', 'AccountLocked']);

const MAX_ENTRIES = 10_000;
/** a safety net only: revocations evict at once (below) */
const MAX_AGE_MS = 60_000;

/**
 * Resolved sessions by token hash, so an authenticated request costs no database read. Entries are
 * evicted as soon as this process projects the event that ends the session, before the logout
 * answers, so a revoked token fails on the very next call. Only valid sessions are cached: forged
 * tokens cannot fill it.
 */
@Injectable()
export class SessionCache implements OnModuleInit, OnModuleDestroy {
  private readonly byTokenHash = new Map<string, Entry>();
  private readonly tokenHashBySession = new Map<string, string>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly progress: ProjectionProgress) {}

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (projection !== 'sessions_v1' && projection !== 'accounts_v2') return;
      for (const event of events) {
        if (event.type === 'SessionEnded') this.evictSession((event.data as { sessionId: string }).sessionId);
        // any other change to an account (status, password, deletion) may end its access
        else if (event.streamId.startsWith('account-') && !QUIET_ACCOUNT_EVENTS.has(event.type)) this.evictAccount(event.streamId.slice('account-'.length));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  get(tokenHash: string, now: number): Principal | null {
    const entry = this.byTokenHash.get(tokenHash);
    if (!entry) return null;
    if (entry.validUntil <= now) {
      this.byTokenHash.delete(tokenHash);
      this.tokenHashBySession.delete(entry.principal.sessionId);
      return null;
    }
    return entry.principal;
  }

  set(tokenHash: string, principal: Principal, sessionExpiresAt: number, now: number): void {
    if (this.byTokenHash.size >= MAX_ENTRIES) {
      this.byTokenHash.clear();
      this.tokenHashBySession.clear();
    }
    this.byTokenHash.set(tokenHash, { principal, validUntil: Math.min(sessionExpiresAt, now + MAX_AGE_MS) });
    this.tokenHashBySession.set(principal.sessionId, tokenHash);
  }

  private evictSession(sessionId: string): void {
    const tokenHash = this.tokenHashBySession.get(sessionId);
    if (tokenHash) this.byTokenHash.delete(tokenHash);
    this.tokenHashBySession.delete(sessionId);
  }

  private evictAccount(accountId: string): void {
    for (const [tokenHash, entry] of this.byTokenHash) {
      if (entry.principal.accountId === accountId) {
        this.byTokenHash.delete(tokenHash);
        this.tokenHashBySession.delete(entry.principal.sessionId);
      }
    }
  }
}
