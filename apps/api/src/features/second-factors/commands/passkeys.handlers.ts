import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TPasskeyOptions, TPasskeyRegistered, TRegisterPasskeyInput, TSecondFactorConfirmation, TSecondFactorEnrolmentProof } from '@rollcall/contracts';
import { DomainError, passkeyCredentialReservation, remainingRecoveryCodes, secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import { ReservationTakenError, type EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { PasskeyCeremonies } from '../../auth/second-factor/passkey-ceremonies';
import { newRecoveryCodes } from '../../auth/second-factor/recovery-codes';
import { secondFactorRequiredFor } from '../../auth/second-factor/second-factor-requirement';
import { SecondFactorVerifier } from '../../auth/second-factor/second-factor-verifier';
import type { AppConfig } from '../../../platform/config/app-config';
import { MailOutbox } from '../../../platform/mail/mail-outbox';
import { mailSecondFactorNotice } from '../second-factor-mails';
import { EnrolmentProof } from './enrolment-proof';

/** Who asks, for the own account's passkeys: the session (a ceremony is bound to it) and the browser's origin. */
export interface OwnSession {
  accountId: string;
  sessionId: string;
  /** the request's Origin header: the relying party when ROLLCALL_PUBLIC_URL is unset */
  origin: string | null;
}

const noOutcome = { commit: 0, sequence: 0 };

export class PasskeyRegistrationOptionsCommand {
  constructor(
    readonly session: OwnSession,
    readonly context: RequestContext,
    /** a current code or passkey when the account has a second factor (review R24 F3), else the current password unless the session signed in within five minutes (R24b F1) */
    readonly proof?: TSecondFactorEnrolmentProof,
  ) {}
}

/**
 * Options for `navigator.credentials.create`: a fresh challenge bound to this session, the account's
 * passkeys excluded. An account that already has a second factor confirms with a current one first,
 * as a removal does (review R24 F3); one without gives its current password unless its session
 * signed in within five minutes (R24b F1, EnrolmentProof): without these options no passkey can be
 * registered.
 */
@CommandHandler(PasskeyRegistrationOptionsCommand)
export class PasskeyRegistrationOptionsHandler implements ICommandHandler<PasskeyRegistrationOptionsCommand, CommandOutcome<TPasskeyOptions>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly proofs: EnrolmentProof,
  ) {}

  async execute({ session, context, proof }: PasskeyRegistrationOptionsCommand): Promise<CommandOutcome<TPasskeyOptions>> {
    const rp = this.ceremonies.relyingParty(session.origin);
    const account = await this.db.selectFrom('accounts_v2').select(['id', 'username', 'first_name', 'last_name', 'policy_id']).where('id', '=', session.accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist');
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(session.accountId));
    await this.proofs.check(session, { id: account.id, policyId: account.policy_id }, state, proof, context);
    const displayName = `${account.first_name} ${account.last_name}`.trim() || account.username;
    const options = await this.ceremonies.registrationOptions(rp, { id: account.id, username: account.username, displayName }, state.passkeys, session.sessionId);
    return { value: { options }, position: noOutcome };
  }
}

export class RegisterPasskeyCommand {
  constructor(
    readonly session: OwnSession,
    readonly input: TRegisterPasskeyInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * The browser's registration response, verified by SimpleWebAuthn against this session's challenge
 * (taken: it registers once), becomes a named passkey. An account without recovery codes gets its
 * first ten with its first factor, shown once in this answer (as with an authenticator app). The
 * credential id is reserved by the same append (passkeyCredentialReservation): of two registrations
 * of one credential racing past the read model's check, one appends and the other is refused.
 */
@CommandHandler(RegisterPasskeyCommand)
export class RegisterPasskeyHandler implements ICommandHandler<RegisterPasskeyCommand, CommandOutcome<TPasskeyRegistered>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ceremonies: PasskeyCeremonies,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async execute({ session, input, context }: RegisterPasskeyCommand): Promise<CommandOutcome<TPasskeyRegistered>> {
    const rp = this.ceremonies.relyingParty(session.origin);
    const credential = await this.ceremonies.verifyRegistration(rp, input.response, session.sessionId);
    const passkeyId = newAggregateId();
    const stream = secondFactorStream(session.accountId);
    const registered = await handleCommand(
      this.store,
      this.clock,
      secondFactorDecider,
      stream,
      { type: 'RegisterPasskey', data: { accountId: session.accountId, passkeyId, name: input.name, credential, at: this.clock.now().toISOString() } },
      context,
      { reservations: [passkeyCredentialReservation(credential.credentialId)] },
    ).catch((error: unknown) => {
      if (error instanceof ReservationTakenError) throw new DomainError('second_factor.passkey_registered', 'This passkey is registered already');
      throw error;
    });
    const name = registered.events[0]?.type === 'PasskeyRegistered' ? registered.events[0].data.name : input.name.trim();
    await mailSecondFactorNotice({ db: this.db, outbox: this.outbox, config: this.config, clock: this.clock }, session.accountId, { change: 'added', factor: 'passkey', name });
    const state = await loadState(this.store, secondFactorDecider, stream);
    if (remainingRecoveryCodes(state) > 0) return { value: { id: passkeyId, name, recovery_codes: null }, position: registered.position };
    const codes = newRecoveryCodes(session.accountId);
    const generated = await handleCommand(this.store, this.clock, secondFactorDecider, stream, { type: 'GenerateRecoveryCodes', data: { codeHashes: codes.hashes, at: this.clock.now().toISOString() } }, context);
    return { value: { id: passkeyId, name, recovery_codes: codes.codes }, position: generated.position };
  }
}

export class RenamePasskeyCommand {
  constructor(
    readonly accountId: string,
    readonly passkeyId: string,
    readonly name: string,
    readonly context: RequestContext,
  ) {}
}

@CommandHandler(RenamePasskeyCommand)
export class RenamePasskeyHandler implements ICommandHandler<RenamePasskeyCommand, CommandOutcome<null>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, passkeyId, name, context }: RenamePasskeyCommand): Promise<CommandOutcome<null>> {
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), { type: 'RenamePasskey', data: { passkeyId, name, at: this.clock.now().toISOString() } }, context);
    return { value: null, position: result.position };
  }
}

export class ConfirmationOptionsCommand {
  constructor(
    readonly session: OwnSession,
    readonly context: RequestContext,
  ) {}
}

/** Options to confirm with one of the own passkeys before removing a factor (a challenge bound to this session). */
@CommandHandler(ConfirmationOptionsCommand)
export class ConfirmationOptionsHandler implements ICommandHandler<ConfirmationOptionsCommand, CommandOutcome<TPasskeyOptions>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  async execute({ session }: ConfirmationOptionsCommand): Promise<CommandOutcome<TPasskeyOptions>> {
    const rp = this.ceremonies.relyingParty(session.origin);
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(session.accountId));
    if (!state.passkeys.length) throw new DomainError('second_factor.passkey_not_found', 'You have no passkey: confirm with a code');
    return { value: { options: await this.ceremonies.authenticationOptions(rp, state.passkeys, 'confirm', session.sessionId) }, position: noOutcome };
  }
}

export class RemovePasskeyCommand {
  constructor(
    readonly session: OwnSession,
    readonly passkeyId: string,
    readonly confirmation: TSecondFactorConfirmation | undefined,
    readonly context: RequestContext,
  ) {}
}

/**
 * One of the own passkeys goes, after a current code or passkey (SecondFactorVerifier.confirm); not
 * the last factor where the policy requires one. With the last factor, the recovery codes go too.
 */
@CommandHandler(RemovePasskeyCommand)
export class RemovePasskeyHandler implements ICommandHandler<RemovePasskeyCommand, CommandOutcome<null>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async execute({ session, passkeyId, confirmation, context }: RemovePasskeyCommand): Promise<CommandOutcome<null>> {
    const account = await this.db.selectFrom('accounts_v2').select(['policy_id']).where('id', '=', session.accountId).executeTakeFirst();
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(session.accountId));
    const required = await secondFactorRequiredFor(this.db, session.accountId, account?.policy_id ?? null);
    const command = { type: 'RemovePasskey' as const, data: { passkeyId, required, at: this.clock.now().toISOString() } };
    // refused before the confirmation is asked (unknown passkey, the last one the policy requires): no code spent on it
    secondFactorDecider.decide(command, state);
    await this.verifier.confirm({ id: session.accountId, policyId: account?.policy_id ?? null }, confirmation, () => this.ceremonies.relyingParty(session.origin), session.sessionId, context);
    // its credential id is free again (passkeyCredentialReservation)
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(session.accountId), command, context, (current) => ({
      releases: current.passkeys.filter((p) => p.passkeyId === passkeyId).map((p) => passkeyCredentialReservation(p.credential.credentialId)),
    }));
    const removed = result.events.find((event) => event.type === 'PasskeyRemoved');
    if (removed) await mailSecondFactorNotice({ db: this.db, outbox: this.outbox, config: this.config, clock: this.clock }, session.accountId, { change: 'removed', factor: 'passkey', name: removed.data.name });
    return { value: null, position: result.position };
  }
}
