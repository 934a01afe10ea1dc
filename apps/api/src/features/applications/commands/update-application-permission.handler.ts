import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TApplicationPermissionCommandInput } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { applicationOfPermission, decideOnApplication } from './application-stream';

export class UpdateApplicationPermissionCommand {
  constructor(
    readonly permissionId: string,
    readonly input: TApplicationPermissionCommandInput,
    readonly context: RequestContext,
  ) {}
}

/** The permission row's Save ('Permission updated'): slug and description together. */
@CommandHandler(UpdateApplicationPermissionCommand)
export class UpdateApplicationPermissionHandler implements ICommandHandler<UpdateApplicationPermissionCommand, CommandOutcome<{ id: string; applicationId: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ permissionId, input, context }: UpdateApplicationPermissionCommand): Promise<CommandOutcome<{ id: string; applicationId: string }>> {
    const applicationId = await applicationOfPermission(this.db, permissionId);
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'ChangeApplicationPermission',
      data: { permissionId, slug: input.slug, description: input.description, changedAt: at },
    }));
    return { value: { id: permissionId, applicationId }, position };
  }
}
