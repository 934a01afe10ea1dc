import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ProjectionProgress } from '../../platform/projections/projection-progress';
import type { Principal } from '../../platform/access/principal';

/** A resolved credential: who it acts as, and where it may be used from (access tokens only). */
export interface ResolvedCredential<P extends Principal = Principal> {
  principal: P;
  restrictions: readonly string[];
  /** access tokens: when it stops working (null = never); sessions carry theirs in validUntil */
  expiresAt: string | null;
}

interface Entry {
  credential: ResolvedCredential;
  validUntil: number;
}

/** account events that change nothing about an open session's or token's access */
const QUIET_ACCOUNT_EVENTS = new Set(['AccountSignedIn', 'SignInFailed', 'AccountLocked']);
// organization_access_v1: an account's roles and what roles grant; organizations_v1: the tree grants follow
const WATCHED_PROJECTIONS = new Set(['sessions_v1', 'accounts_v2', 'access_tokens_v1', 'organization_access_v1', 'organizations_v1', 'second_factors_v1', 'password_policy_second_factor_v1']);
/** an account's second factors came or went: whether its sessions must enrol one first may change (docs/adr/0025) */
const SECOND_FACTOR_STREAM = 'second-factors-';
/** a policy's second-factor rule changed: every session under it may have to enrol, or no longer */
const POLICY_RULE_EVENTS = new Set(['PasswordPolicyUpdated', 'PasswordPolicyDeleted']);
/**
 * Events that change the grants of every holder of a role, or the subtrees grants reach: rare
 * administration, so every cached credential is resolved again (docs/adr/0011).
 */
const GRANT_SHAPING_EVENTS = new Set([
  'PermissionGrantedToRole',
  'PermissionRevokedFromRole',
  'PermissionSlugChanged',
  'PermissionDeleted',
  'RoleDeleted',
  'OrganizationPlaced',
  'OrganizationDeleted',
]);

const MAX_ENTRIES = 10_000;
/** a safety net only: revocations evict at once (below) */
const MAX_AGE_MS = 60_000;

const credentialIdOf = (principal: Principal) => (principal.kind === 'session' ? principal.sessionId : principal.tokenId);

/**
 * Resolved sessions and access tokens by token hash, so an authenticated request costs no database
 * read. Entries are evicted as soon as this process projects the event that ends or changes the
 * credential (logout, token edit or deletion, any change to the account), before that command
 * answers, so a revoked credential fails on the very next call. Only valid credentials are cached:
 * forged tokens cannot fill it.
 */
@Injectable()
export class CredentialCache implements OnModuleInit, OnModuleDestroy {
  private readonly byTokenHash = new Map<string, Entry>();
  private readonly tokenHashByCredential = new Map<string, string>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly progress: ProjectionProgress) {}

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (!WATCHED_PROJECTIONS.has(projection)) return;
      for (const event of events) {
        if (GRANT_SHAPING_EVENTS.has(event.type) || (projection === 'password_policy_second_factor_v1' && POLICY_RULE_EVENTS.has(event.type))) this.clear();
        else if (event.streamId.startsWith(SECOND_FACTOR_STREAM)) {
          if (event.type !== 'TotpUsed' && event.type !== 'RecoveryCodeUsed' && event.type !== 'PasskeyUsed' && event.type !== 'PasskeyRenamed') this.evictAccount(event.streamId.slice(SECOND_FACTOR_STREAM.length));
        }
        else if (event.type === 'SessionEnded') this.evictCredential((event.data as { sessionId: string }).sessionId);
        else if (event.type === 'AccessTokenUpdated' || event.type === 'AccessTokenRevoked') this.evictCredential((event.data as { tokenId: string }).tokenId);
        // any other change to an account (status, password, deletion) may end its access
        else if (event.streamId.startsWith('account-') && !QUIET_ACCOUNT_EVENTS.has(event.type)) this.evictAccount(event.streamId.slice('account-'.length));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  get(tokenHash: string, now: number): ResolvedCredential | null {
    const entry = this.byTokenHash.get(tokenHash);
    if (!entry) return null;
    if (entry.validUntil <= now) {
      this.byTokenHash.delete(tokenHash);
      this.tokenHashByCredential.delete(credentialIdOf(entry.credential.principal));
      return null;
    }
    return entry.credential;
  }

  /** `expiresAt`: when the credential itself stops working (ms), or null for never */
  set(tokenHash: string, credential: ResolvedCredential, expiresAt: number | null, now: number): void {
    if (this.byTokenHash.size >= MAX_ENTRIES) this.clear();
    this.byTokenHash.set(tokenHash, { credential, validUntil: Math.min(expiresAt ?? Infinity, now + MAX_AGE_MS) });
    this.tokenHashByCredential.set(credentialIdOf(credential.principal), tokenHash);
  }

  private clear(): void {
    this.byTokenHash.clear();
    this.tokenHashByCredential.clear();
  }

  private evictCredential(credentialId: string): void {
    const tokenHash = this.tokenHashByCredential.get(credentialId);
    if (tokenHash) this.byTokenHash.delete(tokenHash);
    this.tokenHashByCredential.delete(credentialId);
  }

  private evictAccount(accountId: string): void {
    for (const [tokenHash, entry] of this.byTokenHash) {
      if (entry.credential.principal.accountId === accountId) {
        this.byTokenHash.delete(tokenHash);
        this.tokenHashByCredential.delete(credentialIdOf(entry.credential.principal));
      }
    }
  }
}
