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

export class RenameApplicationRoleCommand {
  constructor(
    readonly roleId: string,
    readonly title: string,
    readonly context: RequestContext,
  ) {}
}

/** The roles table's inline 'Update Title'. */
@CommandHandler(RenameApplicationRoleCommand)
export class RenameApplicationRoleHandler implements ICommandHandler<RenameApplicationRoleCommand, CommandOutcome<{ id: string; applicationId: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, title, context }: RenameApplicationRoleCommand): Promise<CommandOutcome<{ id: string; applicationId: string }>> {
    const applicationId = await applicationOfRole(this.db, roleId);
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'ChangeApplicationRoleTitle', data: { roleId, title, changedAt: at } }));
    return { value: { id: roleId, applicationId }, position };
  }
}
