import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

