import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfRole, decideOnApplication } from './application-stream';

export class DeleteApplicationRoleCommand {
  constructor(
    readonly roleId: string,
    readonly context: RequestContext,
  ) {}
}

export const applicationRoleDeletedMessage = 'Role deleted successfully';

/** 'Remove ({title}) from application': the role, its relations and the accounts' grants of it go. */
@CommandHandler(DeleteApplicationRoleCommand)
export class DeleteApplicationRoleHandler implements ICommandHandler<DeleteApplicationRoleCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, context }: DeleteApplicationRoleCommand): Promise<CommandOutcome<{ id: string }>> {
    const applicationId = await applicationOfRole(this.db, roleId);
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'DeleteApplicationRole', data: { roleId, deletedAt: at } }));
    return { value: { id: roleId }, position };
  }
}
