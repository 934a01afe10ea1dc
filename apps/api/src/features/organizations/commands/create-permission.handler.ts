import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreatePermissionCommandInput } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnOrganization } from './organization-access';

export class CreatePermissionCommand {
  constructor(
    readonly input: TCreatePermissionCommandInput,
    readonly context: RequestContext,
    readonly isProtected = false,
    readonly permissionId: string = newAggregateId(),
  ) {}
}

/** 'Create new permission': a permission of the organization (slug unique there, 409 permission.slug_taken). */
@CommandHandler(CreatePermissionCommand)
export class CreatePermissionHandler implements ICommandHandler<CreatePermissionCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context, isProtected, permissionId }: CreatePermissionCommand): Promise<CommandOutcome<{ id: string }>> {
    const { position } = await decideOnOrganization(this.store, this.clock, context, input.organization_id, (at) => ({
      type: 'CreatePermission',
      data: { permissionId, title: input.title, slug: input.slug, description: input.description, isProtected, createdAt: at },
    }));
    return { value: { id: permissionId }, position };
  }
}
