import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Principal } from '../../platform/access/principal';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import type { Clock } from '../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../platform/tokens';
import { RECENT_SIGN_IN_SECONDS } from '../second-factors/commands/enrolment-proof';

/** who calls an administrators' credentials route: the account it acts for, and its session (none for an access token) */
export interface CredentialsCaller {
  accountId: string;
  sessionId: string | null;
}

export const credentialsCallerOf = (principal: Principal): CredentialsCaller => ({ accountId: principal.accountId, sessionId: principal.kind === 'session' ? principal.sessionId : null });

export const ownCredentialsNeedRecentSignIn = () =>
  new DomainError(
    'account.own_credentials_need_recent_sign_in',
    "Your own account's status, password policy or lockout changes only from a session that signed in within the last 5 minutes: sign in again and repeat the change, or ask another administrator",
  );

/**
 * The administrators' credentials routes on the caller's OWN account (review R24c G2,
 * docs/adr/0025 'Amendment'). Its password is never set there (SetPasswordHandler: its own page,
 * with the current one). Its status, policy and lockout (`account/{id}/auth`, `account/{id}/unlock`)
 * change only from a session that signed in within the last five minutes, the rule a first second
 * factor follows (EnrolmentProof): a stolen session an hour old neither lifts the policy's lockout
 * or second-factor rule nor forgets the failed sign-ins that guard the current password. An access
 * token never counts as a recent sign-in. Other accounts pass unchanged.
 */
@Injectable()
export class OwnCredentialsRule {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(accountId: string, caller: CredentialsCaller): Promise<void> {
    if (accountId !== caller.accountId) return;
    if (caller.sessionId !== null) {
      const row = await this.db.selectFrom('sessions_v1').select(['started_at']).where('id', '=', caller.sessionId).executeTakeFirst();
      // a session whose row is missing counts as old
      if (row && this.clock.now().getTime() - Date.parse(row.started_at) <= RECENT_SIGN_IN_SECONDS * 1000) return;
    }
    throw ownCredentialsNeedRecentSignIn();
  }
}
