import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TApplicationRolePermissionRelation } from '@rollcall/contracts';
import { rolePermissionLinkId } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfRole, decideOnApplication } from './application-stream';

export class AddApplicationRolePermissionCommand {
  constructor(
    readonly roleId: string,
    readonly permissionId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * A role's switch on: the answer's id is the relation id that switching off names. Switching on what
 * is on writes nothing and answers the existing relation id (docs/adr/0014).
 */
@CommandHandler(AddApplicationRolePermissionCommand)
export class AddApplicationRolePermissionHandler implements ICommandHandler<AddApplicationRolePermissionCommand, CommandOutcome<TApplicationRolePermissionRelation>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, permissionId, context }: AddApplicationRolePermissionCommand): Promise<CommandOutcome<TApplicationRolePermissionRelation>> {
    const applicationId = await applicationOfRole(this.db, roleId);
    const linkId = newAggregateId();
    const { position, before, events } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'AddPermissionToApplicationRole',
      data: { roleId, permissionId, linkId, at },
    }));
    const existing = before.status === 'active' ? rolePermissionLinkId(before.access, roleId, permissionId) : null;
    return { value: { id: events.length ? linkId : (existing ?? linkId), role_id: roleId, permission_id: permissionId }, position };
  }
}
