import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, organizationDecider, organizationNotFound, organizationStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { organizationOfRole, roleNotFound } from './organization-access';

export class SetAccountRoleCommand {
  constructor(
    readonly accountId: string,
    readonly roleId: string,
    /** null: the role tells the organization (`account/{id}/toggle-role`) */
    readonly organizationId: string | null,
    readonly associated: boolean,
    readonly context: RequestContext,
  ) {}
}

export interface AccountRoleSwitch {
  accountId: string;
  organizationId: string;
  roleId: string;
  associated: boolean;
}

/**
 * A role on or off for an account within an organization (the account tab's switches, 'Manage
 * roles'). The role must be one of that organization's (404 role.not_found), checked on the
 * organization's stream; the grant itself is the account's (docs/adr/0009): only a member may hold a
 * role there (404 membership.not_found), and switching on what is on changes nothing.
 */
@CommandHandler(SetAccountRoleCommand)
export class SetAccountRoleHandler implements ICommandHandler<SetAccountRoleCommand, CommandOutcome<AccountRoleSwitch>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, roleId, organizationId, associated, context }: SetAccountRoleCommand): Promise<CommandOutcome<AccountRoleSwitch>> {
    const inOrganization = organizationId ?? (await organizationOfRole(this.db, roleId));
    const organization = await loadState(this.store, organizationDecider, organizationStream(inOrganization));
    if (organization.status !== 'active') throw organizationNotFound();
    if (!organization.access.roles[roleId]) throw roleNotFound();
    const at = this.clock.now().toISOString();
    const result = await handleCommandRetrying(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      associated ? { type: 'GrantRole', data: { organizationId: inOrganization, roleId, at } } : { type: 'RevokeRole', data: { organizationId: inOrganization, roleId, at } },
      context,
    );
    return { value: { accountId, organizationId: inOrganization, roleId, associated }, position: result.position };
  }
}
