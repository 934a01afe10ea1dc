import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { SessionPrincipal } from '../../../platform/access/principal';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { START } from '../../../platform/event-store/event-store.port';
import { SessionActivityRecorder, type SessionClient } from '../session-activity.recorder';

export class NoteSessionActivityCommand {
  constructor(
    readonly principal: SessionPrincipal,
    readonly client: SessionClient | undefined,
    readonly address: string | null,
  ) {}
}

/**
 * Every call of the page of one's own notes its session's client and time (session-activity.recorder.ts).
 * It appends no event, so the answer waits for no read model (position START).
 */
@CommandHandler(NoteSessionActivityCommand)
export class NoteSessionActivityHandler implements ICommandHandler<NoteSessionActivityCommand, CommandOutcome<null>> {
  constructor(private readonly recorder: SessionActivityRecorder) {}

  async execute({ principal, client, address }: NoteSessionActivityCommand): Promise<CommandOutcome<null>> {
    await this.recorder.note(principal, client, address);
    return { value: null, position: START };
  }
}
