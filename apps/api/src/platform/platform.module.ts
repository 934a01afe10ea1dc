import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { type AppConfig } from './config/app-config';
import { systemClock } from './runtime/clock';
import type { EventStore } from './event-store/event-store.port';
import { ProjectionProgress } from './projections/projection-progress';
import { createReadDb, type ReadDb } from './read-db/create-read-db';
import { CommandGateway } from './commands/command-gateway';
import { PasswordHasher } from './passwords/password-hasher';
import { PasswordStrength } from './passwords/password-strength';
import { Metrics } from './operations/metrics';
import { afterAppends, AppendNotices } from './event-store/after-appends';
import { openSealedEventStore } from './personal-data/open-sealed-event-store';
import { ProjectionRegistry } from './projections/projection-registry';
import { ProjectionsService } from './projections/projections.service';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from './tokens';

const READ_DB_HANDLE = Symbol('READ_DB_HANDLE');

@Global()
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [
    Metrics,
    AppendNotices,
    // every append of this process goes through here: counted for /metrics, announced to the projection worker
    {
      provide: EVENT_STORE,
      inject: [APP_CONFIG, Metrics, AppendNotices],
      useFactory: async (config: AppConfig, metrics: Metrics, notices: AppendNotices) =>
        afterAppends(await openSealedEventStore(config), (events) => {
          metrics.eventsAppended.inc(events);
          notices.appended();
        }),
    },
    { provide: READ_DB_HANDLE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createReadDb(config.readDb) },
    { provide: READ_DB, inject: [READ_DB_HANDLE], useFactory: (handle: ReadDb) => handle.db },
    { provide: CLOCK, useValue: systemClock },
    ProjectionProgress,
    ProjectionRegistry,
    ProjectionsService,
    CommandGateway,
    PasswordHasher,
    PasswordStrength,
  ],
  exports: [Metrics, AppendNotices, EVENT_STORE, READ_DB, CLOCK, ProjectionProgress, ProjectionRegistry, ProjectionsService, CommandGateway, PasswordHasher, PasswordStrength, CqrsModule],
})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB_HANDLE) private readonly readDb: ReadDb,
    private readonly projections: ProjectionsService,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.projections.stop();
    await this.store.close();
    await this.readDb.close();
  }
}
