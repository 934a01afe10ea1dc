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

export class ChangeRoleSlugCommand {
  constructor(
    readonly roleId: string,
    readonly slug: string,
    readonly context: RequestContext,
  ) {}
}

/** The role's slug, edited inline in the Roles tab; the same slug again changes nothing. */
@CommandHandler(ChangeRoleSlugCommand)
export class ChangeRoleSlugHandler implements ICommandHandler<ChangeRoleSlugCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ roleId, slug, context }: ChangeRoleSlugCommand): Promise<CommandOutcome<{ id: string }>> {
    const organizationId = await organizationOfRole(this.db, roleId);
    const { position } = await decideOnOrganization(this.store, this.clock, context, organizationId, (at) => ({ type: 'ChangeRoleSlug', data: { roleId, slug, changedAt: at } }));
    return { value: { id: roleId }, position };
  }
}
