import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { AppConfig } from '../config/app-config';
import { formatPosition, type Position } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';
import { APP_CONFIG } from '../tokens';

/** What every command handler returns: its own result and the position of its last event. */
export interface CommandOutcome<T> {
  value: T;
  position: Position;
}

export interface ConsistentOutcome<T> {
  value: T;
  position: string;
  /** false when the read models had not caught up within the bound; the answer says so in a header */
  consistent: boolean;
}

/**
 * Runs a command, then waits (bounded) until every read model shows its events, so a list read
 * after 'Save' shows the change. REST and tRPC both go through here.
 */
@Injectable()
export class CommandGateway {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute<T>(command: ICommand): Promise<ConsistentOutcome<T>> {
    const outcome = await this.commandBus.execute<ICommand, CommandOutcome<T>>(command);
    const consistent = await this.progress.waitFor(outcome.position, this.config.consistencyWaitMs);
    return { value: outcome.value, position: formatPosition(outcome.position), consistent };
  }
}
