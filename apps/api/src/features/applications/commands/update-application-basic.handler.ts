import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateApplicationBasicCommandInput } from '@rollcall/contracts';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication } from './application-stream';

export class UpdateApplicationBasicCommand {
  constructor(
    readonly applicationId: string,
    readonly input: TUpdateApplicationBasicCommandInput,
    readonly context: RequestContext,
  ) {}
}

/** 'Basic app info updated': title, URL and description together; the same values again change nothing. */
@CommandHandler(UpdateApplicationBasicCommand)
export class UpdateApplicationBasicHandler implements ICommandHandler<UpdateApplicationBasicCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, input, context }: UpdateApplicationBasicCommand): Promise<CommandOutcome<{ id: string }>> {
    const { position } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'ChangeApplicationBasicInfo',
      data: { title: input.title, url: input.url, description: input.description, changedAt: at },
    }));
    return { value: { id: applicationId }, position };
  }
}
