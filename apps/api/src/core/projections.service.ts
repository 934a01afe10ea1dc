import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { EventStore } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';
import { ProjectionRunner } from '../projections/projection-runner';
import type { ReadDatabase } from '../read-db/read-database';
import { ProjectionRegistry } from './projection-registry';
import { EVENT_STORE, READ_DB } from './tokens';

/** Starts every registered projection and catches them up before the API takes requests. */
@Injectable()
export class ProjectionsService {
  private readonly logger = new Logger('Projections');
  private runner: ProjectionRunner | null = null;
  /** projections whose subscription stopped on an error: the process is not ready (/readyz) */
  private readonly failed = new Map<string, string>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    private readonly registry: ProjectionRegistry,
    private readonly progress: ProjectionProgress,
  ) {}

  async start(): Promise<void> {
    this.runner = new ProjectionRunner(this.store, this.db, this.registry.all(), this.progress, (name, error) => {
      const message = error instanceof Error ? error.message : String(error);
      this.failed.set(name, message);
      this.logger.error(`projection ${name} stopped: ${message}`);
    });
    await this.runner.start();
    await this.runner.catchUp();
  }

  failures(): string[] {
    return [...this.failed.keys()];
  }

  async stop(): Promise<void> {
    await this.runner?.stop();
    this.runner = null;
  }
}
