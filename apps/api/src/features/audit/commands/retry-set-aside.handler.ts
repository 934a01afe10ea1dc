import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { TRetryAnswer } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { ProjectionsService } from '../../../platform/projections/projections.service';
import { START, type Position } from '../../../platform/event-store/event-store.port';
import { projectionNotFound } from '../queries/projections-status.query';
import { parsePosition } from '../../../platform/event-store/event-store.port';

export class RetrySetAsideCommand {
  constructor(
    readonly projection: string,
    readonly position: Position,
  ) {}
}

/**
 * Applies a set-aside event again. It appends nothing: the event is already in the store, only the
 * read model changes (in the same transaction that takes the event off the list), so there is no
 * position to wait for.
 */
@CommandHandler(RetrySetAsideCommand)
export class RetrySetAsideHandler implements ICommandHandler<RetrySetAsideCommand, CommandOutcome<TRetryAnswer>> {
  constructor(private readonly projections: ProjectionsService) {}

  async execute({ projection, position }: RetrySetAsideCommand): Promise<CommandOutcome<TRetryAnswer>> {
    if (!(await this.projections.setAside(projection))) throw projectionNotFound();
    const outcome = await this.projections.retry(projection, position);
    if (!outcome) throw new DomainError('set_aside.not_found', 'This event is not set aside by this projection', 'position');
    return { value: outcome, position: START };
  }
}

/** the contracts checked the position's shape */
export const retryCommand = (projection: string, position: string) => new RetrySetAsideCommand(projection, parsePosition(position) ?? { commit: 0, sequence: 0 });
