import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TApplicationPermissionCommandInput } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication } from './application-stream';

export class AddApplicationPermissionCommand {
  constructor(
    readonly applicationId: string,
    readonly input: TApplicationPermissionCommandInput,
    readonly context: RequestContext,
    readonly permissionId: string = newAggregateId(),
  ) {}
}

/** 'Add Permission' ('Permission created!'): a slug unique within the application, not a declared or standard scope. */
@CommandHandler(AddApplicationPermissionCommand)
export class AddApplicationPermissionHandler implements ICommandHandler<AddApplicationPermissionCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, input, context, permissionId }: AddApplicationPermissionCommand): Promise<CommandOutcome<{ id: string }>> {
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'AddApplicationPermission',
      data: { permissionId, slug: input.slug, description: input.description, createdAt: at },
    }));
    return { value: { id: permissionId }, position };
  }
}
