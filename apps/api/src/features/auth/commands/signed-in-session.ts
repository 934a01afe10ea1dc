import { ACCOUNT_STATUS } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, sessionDecider, sessionStream, type AccountState } from '@rollcall/domain';
import { handleCommand, handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { hashToken, newSessionToken } from '../../../platform/access/session-token';
import { accountExpired, passwordChangeRequired as needsPasswordChange } from '../queries/resolve-session.query';

export type CreatedAccount = Extract<AccountState, { status: 'created' }>;

/** A sign-in that ended in a session. */
export interface SessionSignIn {
  kind: 'session';
  token: string;
  accountId: string;
  expiresAt: string;
  /** the session may only change the password (status 3 or an aged password) */
  passwordChangeRequired: boolean;
  /** the policy requires a second factor the account has not enrolled: the session may only enrol one (docs/adr/0025) */
  secondFactorEnrolmentRequired: boolean;
  /**
   * RFC 8176 authentication methods (the OpenID Connect login passes them on as `amr`): `pwd`, `otp`
   * after a code, `hwk` and `user` after a passkey, and `mfa` for a passkey alone that verified its user
   */
  amr: AuthenticationMethod[];
  /** a recovery code signed this session in: how many remain */
  recoveryCodesRemaining: number | null;
}

export type AuthenticationMethod = 'pwd' | 'otp' | 'hwk' | 'user' | 'mfa';

/** The password was right and a code is still needed: the first step's answer. */
export interface SecondFactorRequired {
  kind: 'second_factor_required';
  accountId: string;
  challenge: string;
  methods: Array<'totp' | 'passkey' | 'recovery_code'>;
  expiresAt: string;
}

export type SignInResult = SessionSignIn | SecondFactorRequired;

/**
 * Unknown, locked, disabled, expired and wrong-password sign-ins all get the same answer; a throttled
 * one gets 429 `rate.limited`, decided before the account is looked up (sign-in-throttle.ts).
 */
export const invalidCredentials = () => new DomainError('auth.invalid_credentials', 'Wrong username or password');

/** may this account sign in at all now (a code does not open a locked, disabled or expired account) */
export function accountMayEnter(account: CreatedAccount, now: Date): boolean {
  if (account.lockedUntil !== null && account.lockedUntil > now.toISOString()) return false;
  return !accountExpired(account.expiresAt, now) && account.statusId !== ACCOUNT_STATUS.disabled;
}

/**
 * Starts the session of a sign-in that passed every check, and records the sign-in on the account.
 * Shared by the password step (no second factor) and the code step.
 */
export async function startSignedInSession(
  deps: { store: EventStore; clock: Clock; config: AppConfig },
  account: CreatedAccount,
  facts: { maxAgeDays: number | null; secondFactorEnrolmentRequired: boolean; amr: AuthenticationMethod[]; recoveryCodesRemaining: number | null },
  actingAsSelf: RequestContext,
): Promise<CommandOutcome<SessionSignIn>> {
  const { store, clock, config } = deps;
  const now = clock.now();
  const at = now.toISOString();
  const sessionId = newAggregateId();
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + config.sessionHours * 3_600_000).toISOString();
  await handleCommand(store, clock, sessionDecider, sessionStream(sessionId), {
    type: 'StartSession',
    data: { sessionId, accountId: account.id, tokenHash: hashToken(token), startedAt: at, expiresAt },
  }, actingAsSelf);
  let signedIn;
  try {
    signedIn = await handleCommandRetrying(store, clock, accountDecider, accountStream(account.id), { type: 'RecordSignIn', data: { sessionId, at, passwordHash: account.passwordHash } }, actingAsSelf);
  } catch (error) {
    // locked, or the password changed (which ends every session of the old one), by a parallel call
    // since we looked: the session just started never reaches the client, and is ended; the same
    // answer as any refusal
    if (error instanceof DomainError && (error.code === 'account.locked' || error.code === 'account.password_changed')) {
      await handleCommandRetrying(store, clock, sessionDecider, sessionStream(sessionId), { type: 'EndSession', data: { endedAt: at, reason: 'revoked' } }, actingAsSelf);
      throw invalidCredentials();
    }
    throw error;
  }
  const passwordChangeRequired = needsPasswordChange(account.statusId, account.passwordChangedAt, facts.maxAgeDays, now);
  return {
    value: { kind: 'session', token, accountId: account.id, expiresAt, passwordChangeRequired, secondFactorEnrolmentRequired: facts.secondFactorEnrolmentRequired, amr: facts.amr, recoveryCodesRemaining: facts.recoveryCodesRemaining },
    position: signedIn.position,
  };
}
