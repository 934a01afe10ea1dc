import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateApplicationRoleCommandInput } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication } from './application-stream';

export class CreateApplicationRoleCommand {
  constructor(
    readonly applicationId: string,
    readonly input: TCreateApplicationRoleCommandInput,
    readonly context: RequestContext,
    readonly roleId: string = newAggregateId(),
  ) {}
}

/**
 * 'Create new role for an application': title, slug (unique among the application's roles),
 * description and the chosen permissions, each switched on with a fresh relation id. A permission
 * of another application is 400 permission.not_found on `permissions`, and nothing is written.
 */
@CommandHandler(CreateApplicationRoleCommand)
export class CreateApplicationRoleHandler implements ICommandHandler<CreateApplicationRoleCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, input, context, roleId }: CreateApplicationRoleCommand): Promise<CommandOutcome<{ id: string }>> {
    const permissions = input.permissions.map((permissionId) => ({ permissionId, linkId: newAggregateId() }));
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'CreateApplicationRole',
      data: { roleId, title: input.title, slug: input.slug, description: input.description, permissions, createdAt: at },
    }));
    return { value: { id: roleId }, position };
  }
}
