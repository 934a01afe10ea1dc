import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateRoleCommandInput } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnOrganization } from './organization-access';

export class CreateRoleCommand {
  constructor(
    readonly input: TCreateRoleCommandInput,
    readonly context: RequestContext,
    /** only the bootstrap's administrator role is protected */
    readonly isProtected = false,
    readonly roleId: string = newAggregateId(),
  ) {}
}

/**
 * 'Create role for an organization': title, slug (unique within the organization) and the
 * organization's permissions it starts with (404 permission.not_found on `permissions` for any other).
 */
@CommandHandler(CreateRoleCommand)
export class CreateRoleHandler implements ICommandHandler<CreateRoleCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context, isProtected, roleId }: CreateRoleCommand): Promise<CommandOutcome<{ id: string }>> {
    const { position } = await decideOnOrganization(this.store, this.clock, context, input.organization_id, (at) => ({
      type: 'CreateRole',
      data: { roleId, title: input.title, slug: input.slug, description: input.description, permissionIds: input.permissions, isProtected, createdAt: at },
    }));
    return { value: { id: roleId }, position };
  }
}
