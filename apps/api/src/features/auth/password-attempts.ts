import { Inject, Injectable } from '@nestjs/common';
import { accountDecider, accountStream, DomainError, type AccountState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying, loadState } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import type { RequestContext } from '../../platform/commands/request-context';
import type { AppConfig } from '../../platform/config/app-config';
import { PasswordHasher } from '../../platform/passwords/password-hasher';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { SignInThrottle } from './sign-in-throttle';

type Created = Extract<AccountState, { status: 'created' }>;

export interface LockoutRule {
  attempts: number;
  durationSeconds: number;
}

/**
 * Every account is under a lockout: its policy's, or the built-in default where no policy sets one
 * (no policy, or a policy's lockout 0), the first administrator's included.
 */
export function lockoutRule(policy: { lockout: number; lockout_duration: number } | undefined, config: AppConfig): LockoutRule {
  return policy && policy.lockout > 0 ? { attempts: policy.lockout, durationSeconds: policy.lockout_duration } : config.signIn.defaultLockout;
}

/** The one way a wrong password is counted against its account (SignInFailed, then AccountLocked at the rule's limit). */
export async function recordWrongPassword(store: EventStore, clock: Clock, accountId: string, lockout: LockoutRule, at: string, context: RequestContext) {
  // parallel wrong attempts each re-decide on the latest stream: exactly `attempts` count before the lock
  return handleCommandRetrying(store, clock, accountDecider, accountStream(accountId), {
    type: 'RecordFailedSignIn',
    data: { at, lockoutAttempts: lockout.attempts, lockoutDurationSeconds: lockout.durationSeconds },
  }, context);
}

/**
 * 429 `rate.limited` to the account's own change of its password while the account is locked (too
 * many wrong passwords, at sign-in or here): refused before the password is looked at, right or
 * wrong alike; Retry-After is the lock's end.
 */
export class AccountLockedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate.limited', 'Too many wrong passwords: this account is locked for now (Retry-After says how long); try again later');
  }
}

const currentWrong = () => new DomainError('password.current_wrong', 'Current password is wrong', 'current_password');

function lockedError(lockedUntil: string, now: Date): AccountLockedError {
  return new AccountLockedError(Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 1000)));
}

/**
 * A password checked anywhere but the sign-in (which has its own handler, under the same rules) is
 * checked here: the owner's change of its own password proves the current one. The proof is under
 * the sign-in's rules (docs/security.md, "Every password check is a sign-in"):
 * - the sign-in throttle (per address, per username and address), taken before the hash is verified,
 *   shared with sign-in: failures here and there count together; 429 `rate.limited` with Retry-After;
 * - the account's lockout: a wrong password is a failed sign-in of the account (SignInFailed), and
 *   a locked account's change is refused (429 with Retry-After until the lock ends), also when a
 *   parallel wrong guess locked it after this one was checked (the decider refuses the SetPassword).
 */
@Injectable()
export class PasswordAttempts {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
  ) {}

  /**
   * Verifies `password` as `account`'s current one; when right, runs `use` with the hash it was
   * verified against (to send as SetPassword's `checkedPasswordHash`). A wrong one answers 400
   * `password.current_wrong` on `current_password` and counts as a failed sign-in.
   */
  async proveCurrentPassword<T>(account: Created, password: string, context: RequestContext, use: (checkedPasswordHash: string) => Promise<T>): Promise<T> {
    // before the hash: a throttled attempt costs nothing
    const attempt = await this.throttle.attempt(account.username, context.sourceIp);
    let proven = false;
    try {
      const now = this.clock.now();
      const at = now.toISOString();
      if (account.lockedUntil !== null && account.lockedUntil > at) throw lockedError(account.lockedUntil, now);
      if (!(await this.hasher.verify(account.passwordHash, password))) {
        const policy = account.policyId ? await this.db.selectFrom('password_policies_v2').select(['lockout', 'lockout_duration']).where('id', '=', account.policyId).executeTakeFirst() : undefined;
        const recorded = await recordWrongPassword(this.store, this.clock, account.id, lockoutRule(policy, this.config), at, context);
        if (recorded.events.length === 0) {
          // locked by a parallel guess since we looked: the same answer as a right password gets now
          const latest = await loadState(this.store, accountDecider, accountStream(account.id));
          if (latest.status === 'created' && latest.lockedUntil !== null && latest.lockedUntil > at) throw lockedError(latest.lockedUntil, now);
        }
        throw currentWrong();
      }
      proven = true;
      let value: T;
      try {
        value = await use(account.passwordHash!);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'account.locked') {
          const latest = await loadState(this.store, accountDecider, accountStream(account.id));
          const until = latest.status === 'created' ? latest.lockedUntil : null;
          throw lockedError(until ?? at, now);
        }
        // changed by a parallel call since it was checked: what was proven is no longer the current password
        if (error instanceof DomainError && error.code === 'account.password_changed') throw currentWrong();
        throw error;
      }
      await attempt.succeeded();
      return value;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'password.current_wrong' && !proven) throw error; // the failure keeps its point
      // the right password (whatever became of the new one) clears its failures like a sign-in; a lock or our own fault does not count
      if (proven) await attempt.succeeded();
      else await attempt.release();
      throw error;
    }
  }
}
