import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TApplicationScope } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication } from './application-stream';

export class SetApplicationScopesCommand {
  constructor(
    readonly applicationId: string,
    readonly scopes: TApplicationScope[],
    readonly context: RequestContext,
  ) {}
}

/** The declared scopes as a whole list (our addition: the create dialog is otherwise the only place they are set). */
@CommandHandler(SetApplicationScopesCommand)
export class SetApplicationScopesHandler implements ICommandHandler<SetApplicationScopesCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, scopes, context }: SetApplicationScopesCommand): Promise<CommandOutcome<{ id: string }>> {
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({ type: 'ChangeApplicationScopes', data: { scopes, changedAt: at } }));
    return { value: { id: applicationId }, position };
  }
}
