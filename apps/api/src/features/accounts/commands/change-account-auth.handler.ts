import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TAccountAuthCommandInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { OwnCredentialsRule, type CredentialsCaller } from '../own-credentials';

export class ChangeAccountAuthCommand {
  constructor(
    readonly accountId: string,
    readonly input: TAccountAuthCommandInput,
    readonly context: RequestContext,
    readonly caller: CredentialsCaller,
  ) {}
}

/**
 * `PUT account/{id}/auth`: status and policy; fields left out keep their values. A change of the
 * caller's own needs a recent sign-in (OwnCredentialsRule, review R24c G2).
 */
@CommandHandler(ChangeAccountAuthCommand)
export class ChangeAccountAuthHandler implements ICommandHandler<ChangeAccountAuthCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ownCredentials: OwnCredentialsRule,
  ) {}

  async execute({ accountId, input, context, caller }: ChangeAccountAuthCommand): Promise<CommandOutcome<{ id: string }>> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    if (input.username !== undefined && input.username !== state.username) {
      throw new DomainError('account.username_unchangeable', 'username cannot be changed here', 'username');
    }
    const policyId = input.policy_id === undefined ? state.policyId : input.policy_id;
    const statusId = input.status_id ?? state.statusId;
    if (statusId !== state.statusId || policyId !== state.policyId) await this.ownCredentials.check(accountId, caller);
    if (policyId !== null && policyId !== state.policyId) {
      const policy = await this.db.selectFrom('password_policies_v2').select('id').where('id', '=', policyId).executeTakeFirst();
      if (!policy) throw new DomainError('policy.not_found', 'This password policy does not exist', 'policy_id');
    }
    const result = await handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: 'ChangeAccountAuth', data: { statusId, policyId, changedAt: this.clock.now().toISOString() } },
      context,
    );
    return { value: { id: accountId }, position: result.position };
  }
}
