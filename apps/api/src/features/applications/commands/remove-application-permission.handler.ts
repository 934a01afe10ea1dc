import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfPermission, decideOnApplication } from './application-stream';

export class RemoveApplicationPermissionCommand {
  constructor(
    readonly permissionId: string,
    readonly context: RequestContext,
  ) {}
}

export const applicationPermissionDeletedMessage = 'Permission deleted';

/** Removes a permission (after the row's confirmation); every role loses its switch for it. */
@CommandHandler(RemoveApplicationPermissionCommand)
export class RemoveApplicationPermissionHandler implements ICommandHandler<RemoveApplicationPermissionCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ permissionId, context }: RemoveApplicationPermissionCommand): Promise<CommandOutcome<{ id: string }>> {
    const applicationId = await applicationOfPermission(this.db, permissionId);
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'RemoveApplicationPermission', data: { permissionId, removedAt: at } }));
    return { value: { id: permissionId }, position };
  }
}
