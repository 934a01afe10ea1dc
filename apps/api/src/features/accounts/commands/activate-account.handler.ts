import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, activationInvalid, AWAITING_ACTIVATION, type AccountState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { hashActivationToken } from '../activation-mails';
import { NewPasswordService } from '../new-password';

type Created = Extract<AccountState, { status: 'created' }>;

/**
 * The account an activation token opens, or `activation.invalid` (unknown, used, replaced and
 * expired tokens alike). The read model only finds the account; its stream decides.
 */
export async function accountOfActivationToken(db: Kysely<ReadDatabase>, store: EventStore, token: string, now: string): Promise<{ state: Created; tokenHash: string }> {
  const tokenHash = hashActivationToken(token);
  const row = await db.selectFrom('account_activations_v1').select('account_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) throw activationInvalid();
  const state = await loadState(store, accountDecider, accountStream(row.account_id));
  if (state.status !== 'created' || state.statusId !== AWAITING_ACTIVATION || state.activation?.tokenHash !== tokenHash || state.activation.expiresAt <= now) throw activationInvalid();
  return { state, tokenHash };
}

export class ActivateAccountCommand {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {}
}

/** `POST account/activate`: the owner sets the first password through the link of the activation mail. */
@CommandHandler(ActivateAccountCommand)
export class ActivateAccountHandler implements ICommandHandler<ActivateAccountCommand, CommandOutcome<{ id: string; username: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly newPassword: NewPasswordService,
  ) {}

  async execute({ token, password, context }: ActivateAccountCommand): Promise<CommandOutcome<{ id: string; username: string }>> {
    // the link is checked before the password, so a dead link never reveals the policy's rules
    const { state, tokenHash } = await accountOfActivationToken(this.db, this.store, token, this.clock.now().toISOString());
    const prepared = await this.newPassword.prepare(state, password);
    // a second use racing this one fails on the stream version (409) or, re-read, as activation.invalid
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(state.id), { type: 'ActivateAccount', data: { tokenHash, ...prepared, at: this.clock.now().toISOString() } }, context);
    return { value: { id: state.id, username: state.username }, position: result.position };
  }
}
