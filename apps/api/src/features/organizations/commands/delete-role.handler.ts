import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { decideOnOrganization, organizationOfRole } from './organization-access';

export class DeleteRoleCommand {
  constructor(
    readonly roleId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * Deletes a role (403 role.protected). The accounts holding it lose it with the same event: the read
 * models drop their grants, and authorization only counts roles the organization still has
 * (docs/adr/0012), so no account stream needs a write.
 */
@CommandHandler(DeleteRoleCommand)
export class DeleteRoleHandler implements ICommandHandler<DeleteRoleCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, context }: DeleteRoleCommand): Promise<CommandOutcome<{ id: string }>> {
    const organizationId = await organizationOfRole(this.db, roleId);
    const { position } = await decideOnOrganization(this.store, this.clock, context, organizationId, (at) => ({ type: 'DeleteRole', data: { roleId, deletedAt: at } }));
    return { value: { id: roleId }, position };
  }
}
