import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ProjectionRegistry } from '../projections/projection-registry';
import { EVENT_STORE } from '../tokens';
import type { EventStore } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';
import { TrpcServer } from '../trpc/trpc-server';
import { Metrics } from './metrics';

/**
 * The gauges `/metrics` reads at scrape time from the parts that know them
 * (docs/running-in-production.md, 'Health, readiness, metrics').
 */
@Injectable()
export class OperationsGauges implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly progress: ProjectionProgress,
    private readonly registry: ProjectionRegistry,
    private readonly trpc: TrpcServer,
  ) {}

  onModuleInit(): void {
    // commits (append transactions) between a projection and the store's head: 0 when caught up
    this.metrics.gauge('rollcall_projection_lag_commits', 'Commits a projection is behind the event store head', ['projection'], async (set) => {
      const head = await this.store.headPosition();
      for (const projection of this.registry.all()) set({ projection: projection.name }, Math.max(0, head.commit - this.progress.positionOf(projection.name).commit));
    });
    this.metrics.gauge('rollcall_ws_clients', 'WebSocket clients connected to this process', [], (set) => set({}, this.trpc.clientCount()));
  }
}
