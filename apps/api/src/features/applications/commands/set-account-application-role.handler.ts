import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, applicationDecider, applicationStream, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfRole } from './application-stream';

export class SetAccountApplicationRoleCommand {
  constructor(
    readonly accountId: string,
    readonly roleId: string,
    readonly associated: boolean,
    readonly context: RequestContext,
  ) {}
}

export interface AccountApplicationRoleSwitch {
  accountId: string;
  applicationId: string;
  roleId: string;
  associated: boolean;
}

/**
 * An application role granted to (or revoked from) an account: a fact of the account's stream
 * (docs/adr/0014). The role must be one of a live application's, as that application's stream says
 * (404 role.not_found); switching on what is on, or off what is off, writes nothing.
 */
@CommandHandler(SetAccountApplicationRoleCommand)
export class SetAccountApplicationRoleHandler implements ICommandHandler<SetAccountApplicationRoleCommand, CommandOutcome<AccountApplicationRoleSwitch>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, roleId, associated, context }: SetAccountApplicationRoleCommand): Promise<CommandOutcome<AccountApplicationRoleSwitch>> {
    const applicationId = await applicationOfRole(this.db, roleId);
    if (associated) {
      const application = await loadState(this.store, applicationDecider, applicationStream(applicationId));
      if (application.status !== 'active' || !application.access.roles[roleId]) throw new DomainError('role.not_found', 'Role not found', 'role_id');
    }
    const at = this.clock.now().toISOString();
    const result = await handleCommandRetrying(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: associated ? 'GrantApplicationRole' : 'RevokeApplicationRole', data: { applicationId, roleId, at } },
      context,
    );
    return { value: { accountId, applicationId, roleId, associated }, position: result.position };
  }
}
