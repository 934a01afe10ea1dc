import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication } from './application-stream';

export class DeleteApplicationCommand {
  constructor(
    readonly applicationId: string,
    readonly context: RequestContext,
  ) {}
}

export const applicationDeletedMessage = (title: string) => `Application ${title} deleted`;

/** Deletes an application with its permissions and roles; the holders' grants stop counting (docs/adr/0014). */
@CommandHandler(DeleteApplicationCommand)
export class DeleteApplicationHandler implements ICommandHandler<DeleteApplicationCommand, CommandOutcome<{ id: string; title: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, context }: DeleteApplicationCommand): Promise<CommandOutcome<{ id: string; title: string }>> {
    const { position, before } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'DeleteApplication', data: { deletedAt: at } }));
    return { value: { id: applicationId, title: before.status === 'active' ? before.title : '' }, position };
  }
}
