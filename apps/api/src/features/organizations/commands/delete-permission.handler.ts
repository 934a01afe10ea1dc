import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { decideOnOrganization, organizationOfPermission } from './organization-access';

export class DeletePermissionCommand {
  constructor(
    readonly permissionId: string,
    readonly context: RequestContext,
  ) {}
}

/** Deletes a permission (403 permission.protected); it leaves every role that held it with the same event. */
@CommandHandler(DeletePermissionCommand)
export class DeletePermissionHandler implements ICommandHandler<DeletePermissionCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ permissionId, context }: DeletePermissionCommand): Promise<CommandOutcome<{ id: string }>> {
    const organizationId = await organizationOfPermission(this.db, permissionId);
    const { position } = await decideOnOrganization(this.store, this.clock, context, organizationId, (at) => ({ type: 'DeletePermission', data: { permissionId, deletedAt: at } }));
    return { value: { id: permissionId }, position };
  }
}
