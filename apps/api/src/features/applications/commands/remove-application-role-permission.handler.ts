import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfRelation, decideOnApplication } from './application-stream';

export class RemoveApplicationRolePermissionCommand {
  constructor(
    readonly relationId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * A role's switch off, by the relation id add-permission answered. An id the read model does not know
 * (never issued, or already switched off) is 404 application.relation_not_found; a relation removed
 * between that look-up and the decision writes nothing.
 */
@CommandHandler(RemoveApplicationRolePermissionCommand)
export class RemoveApplicationRolePermissionHandler implements ICommandHandler<RemoveApplicationRolePermissionCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ relationId, context }: RemoveApplicationRolePermissionCommand): Promise<CommandOutcome<{ id: string }>> {
    const applicationId = await applicationOfRelation(this.db, relationId);
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'RemovePermissionFromApplicationRole', data: { linkId: relationId, at } }));
    return { value: { id: relationId }, position };
  }
}
