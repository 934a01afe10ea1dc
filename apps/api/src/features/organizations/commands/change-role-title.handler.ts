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

export class ChangeRoleTitleCommand {
  constructor(
    readonly roleId: string,
    readonly title: string,
    readonly context: RequestContext,
  ) {}
}

/** The role's title, edited inline in the Roles tab; the same title again changes nothing. */
@CommandHandler(ChangeRoleTitleCommand)
export class ChangeRoleTitleHandler implements ICommandHandler<ChangeRoleTitleCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, title, context }: ChangeRoleTitleCommand): Promise<CommandOutcome<{ id: string }>> {
    const organizationId = await organizationOfRole(this.db, roleId);
    const { position } = await decideOnOrganization(this.store, this.clock, context, organizationId, (at) => ({ type: 'ChangeRoleTitle', data: { roleId, title, changedAt: at } }));
    return { value: { id: roleId }, position };
  }
}
