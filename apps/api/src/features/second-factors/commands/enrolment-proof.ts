import { Inject, Injectable } from '@nestjs/common';
import type { TSecondFactorEnrolmentProof } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, hasSecondFactor, type SecondFactorState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { PasswordAttempts } from '../../auth/password-attempts';
import { PasskeyCeremonies } from '../../auth/second-factor/passkey-ceremonies';
import { SecondFactorVerifier } from '../../auth/second-factor/second-factor-verifier';
import type { OwnSession } from './passkeys.handlers';

/** how recent a session's sign-in must be for a first factor without the current password (docs/adr/0025, 'Amendment') */
export const RECENT_SIGN_IN_SECONDS = 300;

export const reauthenticationRequired = () =>
  new DomainError('second_factor.reauthentication_required', 'Enter your current password first: this session signed in more than 5 minutes ago', 'current_password');

/**
 * The proof a session gives before a factor is added to its account (review R24 F3, R24b F1): a
 * current code or passkey when the account has a second factor (as a removal,
 * SecondFactorVerifier.confirm); when it has none, the current password (checked as a sign-in's:
 * the throttle, and a wrong one is a failed sign-in of the account, PasswordAttempts), or a session
 * that signed in within the last five minutes (the enrolment a policy leads to right after the
 * sign-in, as Keycloak's required actions' maximum authentication age). A stolen session older than
 * that plants no factor.
 */
@Injectable()
export class EnrolmentProof {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly attempts: PasswordAttempts,
  ) {}

  async check(session: OwnSession, account: { id: string; policyId: string | null }, state: SecondFactorState, proof: TSecondFactorEnrolmentProof | undefined, context: RequestContext): Promise<void> {
    if (hasSecondFactor(state)) {
      const confirmation = proof?.code !== undefined || proof?.passkey !== undefined ? { code: proof.code, passkey: proof.passkey } : undefined;
      await this.verifier.confirm(account, confirmation, () => this.ceremonies.relyingParty(session.origin), session.sessionId, context);
      return;
    }
    if (proof?.current_password !== undefined) {
      const current = await loadState(this.store, accountDecider, accountStream(account.id));
      if (current.status !== 'created') throw new DomainError('account.not_found', 'This account does not exist');
      await this.attempts.proveCurrentPassword(current, proof.current_password, context, async () => undefined);
      return;
    }
    const row = await this.db.selectFrom('sessions_v1').select(['started_at']).where('id', '=', session.sessionId).executeTakeFirst();
    const age = row ? this.clock.now().getTime() - Date.parse(row.started_at) : Number.POSITIVE_INFINITY;
    if (age > RECENT_SIGN_IN_SECONDS * 1000) throw reauthenticationRequired();
  }
}
