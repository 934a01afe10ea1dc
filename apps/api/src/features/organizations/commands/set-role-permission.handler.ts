import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { decideOnOrganization, organizationOfRole, permissionNotFound } from './organization-access';

export class SetRolePermissionCommand {
  constructor(
    readonly roleId: string,
    readonly permissionId: string,
    readonly enabled: boolean,
    readonly context: RequestContext,
  ) {}
}

export interface RolePermissionSwitch {
  roleId: string;
  permissionId: string;
  slug: string;
  enabled: boolean;
}

/**
 * A switch of the Roles tab's expanded row: the permission on or off for the role. Switching on what
 * is on (or off what is off) changes nothing. The permission must be one of the role's organization
 * (404 permission.not_found), also to switch it off.
 */
@CommandHandler(SetRolePermissionCommand)
export class SetRolePermissionHandler implements ICommandHandler<SetRolePermissionCommand, CommandOutcome<RolePermissionSwitch>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, permissionId, enabled, context }: SetRolePermissionCommand): Promise<CommandOutcome<RolePermissionSwitch>> {
    const organizationId = await organizationOfRole(this.db, roleId);
    const { position, before } = await decideOnOrganization(this.store, this.clock, context, organizationId, (at) => ({
      type: enabled ? 'GrantPermissionToRole' : 'RevokePermissionFromRole',
      data: { roleId, permissionId, at },
    }));
    // switching off a permission the organization does not have decides nothing, and is still a 404
    const permission = before.permissions[permissionId];
    if (!permission) throw permissionNotFound();
    const slug = permission.slug;
    return { value: { roleId, permissionId, slug, enabled }, position };
  }
}
