import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventStore } from '../event-store/event-store.port';

/**
 * What `/metrics` exposes to Prometheus (docs/running-in-production.md, 'Health, readiness,
 * metrics'): the process (memory, CPU, event loop), HTTP requests and their latencies by route,
 * events appended, and gauges read at scrape time (projection lag, WebSocket clients) registered by
 * the parts that know them. One registry per app, so several apps in one process (the tests) never
 * mix their figures.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'rollcall_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'rollcall_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly eventsAppended = new Counter({
    name: 'rollcall_events_appended_total',
    help: 'Events appended to the event store by this process',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'rollcall_' });
  }

  /** a gauge whose values are read when Prometheus scrapes */
  gauge<Label extends string>(name: string, help: string, labelNames: readonly Label[], read: (set: (labels: Partial<Record<Label, string>>, value: number) => void) => Promise<void> | void): void {
    new Gauge<Label>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await read((labels, value) => this.set(labels, value));
      },
    });
  }
}

/** The event store as the API uses it, counting what it appends (a repeated idempotency key appends nothing). */
export function countingAppends(store: EventStore, metrics: Metrics): EventStore {
  return {
    appendToStream: async (streamId, events, options) => {
      const result = await store.appendToStream(streamId, events, options);
      if (!result.duplicate) metrics.eventsAppended.inc(events.length);
      return result;
    },
    appendToStreams: async (writes) => {
      const results = await store.appendToStreams(writes);
      metrics.eventsAppended.inc(writes.reduce((sum, write) => sum + write.events.length, 0));
      return results;
    },
    readStream: (streamId, fromVersion) => store.readStream(streamId, fromVersion),
    readAll: (from, limit) => store.readAll(from, limit),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
