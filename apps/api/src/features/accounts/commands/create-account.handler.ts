import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS, type TCreateAccountCommandInput } from '@rollcall/contracts';
import { accountDecider, accountStream, assertPasswordMeetsPolicy, DomainError, emailReservation, organizationDecider, organizationStream, usernameReservation } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { PasswordHasher } from '../../../platform/passwords/password-hasher';
import { PasswordStrength } from '../../../platform/passwords/password-strength';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { ReservationTakenError, type EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ActivationMails } from '../activation-mails';

export class CreateAccountCommand {
  constructor(
    readonly input: TCreateAccountCommandInput,
    readonly context: RequestContext,
    /** the bootstrap administrator cannot be deleted */
    readonly isProtected = false,
  ) {}
}


@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly strength: PasswordStrength,
    private readonly activation: ActivationMails,
  ) {}

  async execute({ input, context, isProtected }: CreateAccountCommand): Promise<CommandOutcome<{ id: string }>> {
    // also without a password: the first one (activation, an administrator's) must meet it (NewPasswordService)
    const policyId = input.policy ? input.policy_id || null : null;
    if (policyId) {
      const policy = await this.db.selectFrom('password_policies_v2').select(['id', 'title', 'min_length', 'min_strength']).where('id', '=', policyId).executeTakeFirst();
      if (!policy) throw new DomainError('policy.not_found', 'This password policy does not exist', 'policy_id');
      if (input.password) {
        // zxcvbn is measured only when the policy asks for a strength; score 0 satisfies a minimum of 0
        const userInputs = [input.username, input.first_name, input.last_name, input.email, input.email.split('@')[0]];
        const score = policy.min_strength > 0 ? await this.strength.score(input.password, userInputs) : 0;
        assertPasswordMeetsPolicy(input.password, score, { title: policy.title, minLength: policy.min_length, minStrength: policy.min_strength });
      }
    }
    const organizationId = input.organization == null || input.organization === '' ? null : String(input.organization);
    // the first membership: the organization must exist, as its own stream says (docs/adr/0009)
    if (organizationId && (await loadState(this.store, organizationDecider, organizationStream(organizationId))).status !== 'active') {
      throw new DomainError('organization.not_found', 'This organization does not exist', 'organization');
    }
    const accountId = newAggregateId();
    const passwordHash = input.no_password || !input.password ? null : await this.hasher.hash(input.password);
    const statusId = passwordHash ? ACCOUNT_STATUS.active : ACCOUNT_STATUS.awaitingActivation;
    const result = await this.withBothTaken(input, () => handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      {
        type: 'CreateAccount',
        data: {
          accountId,
          username: input.username,
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          passwordHash,
          statusId,
          policyId,
          expiresAt: input.expiry ? (input.expires_at ?? null) : null,
          organizationId,
          sendActivation: input.activation,
          isProtected,
          createdAt: this.clock.now().toISOString(),
        },
      },
      context,
      { reservations: [usernameReservation(input.username), emailReservation(input.email)] },
    ));
    // after the append: a mail must never announce an account that was not created (docs/adr/0008)
    const activationPosition = input.activation ? await this.activation.send(accountId, context, true) : null;
    return { value: { id: accountId }, position: activationPosition ?? result.position };
  }

  /**
   * The append stops at the first taken value: when the username is taken, the e-mail address may be
   * too (and the other way round), which the answer names as well (both fields, each with its code;
   * the first stays the error's code), looked up in the accounts read model the reservations keep in
   * step, so the administrator does not fix one and meet the other on the next try.
   */
  private async withBothTaken<T>(input: TCreateAccountCommandInput, append: () => Promise<T>): Promise<T> {
    try {
      return await append();
    } catch (error) {
      if (!(error instanceof ReservationTakenError) || error.others.length) throw error;
      const username = usernameReservation(input.username);
      const email = emailReservation(input.email);
      const other = error.reservation.scope === username.scope ? email : error.reservation.scope === email.scope ? username : null;
      if (!other) throw error;
      const column = other === email ? 'email_lower' : 'username_lower';
      const taken = await this.db.selectFrom('accounts_v2').select('id').where(column, '=', other.value).executeTakeFirst();
      throw taken ? new ReservationTakenError(error.reservation, [other]) : error;
    }
  }
}
