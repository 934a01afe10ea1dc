import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { checkProfilePicture } from '../profile-picture';

export class ChangeProfilePictureCommand {
  constructor(
    readonly accountId: string,
    /** a data URL, or null to remove the picture */
    readonly picture: string | null,
    readonly context: RequestContext,
  ) {}
}

@CommandHandler(ChangeProfilePictureCommand)
export class ChangeProfilePictureHandler implements ICommandHandler<ChangeProfilePictureCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, picture, context }: ChangeProfilePictureCommand): Promise<CommandOutcome<{ id: string }>> {
    const checked = picture === null ? null : checkProfilePicture(picture);
    const result = await handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: 'ChangeProfilePicture', data: { picture: checked, changedAt: this.clock.now().toISOString() } },
      context,
    );
    return { value: { id: accountId }, position: result.position };
  }
}
