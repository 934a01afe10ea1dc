import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { sql, type Kysely } from 'kysely';
import { Public } from '../access/route-decorators';
import { ProjectionsService } from '../projections/projections.service';
import { EVENT_STORE, READ_DB } from '../tokens';
import type { EventStore } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';
import type { ReadDatabase } from '../read-db/read-database';

/** how long the read models may take to reach the store's head before the process counts as not ready */
const CAUGHT_UP_WITHIN_MS = 2000;
/** a store or read database that does not answer within this is unreachable */
const REACHABLE_WITHIN_MS = 2000;

/** on PostgreSQL: 'leader' when this process runs the projections, 'follower' when another one does */
export const PROJECTIONS_ROLE_HEADER = 'x-rollcall-projections-role';

type Check = { ok: true } | { ok: false; error: string };

async function check(run: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REACHABLE_WITHIN_MS} ms`)), REACHABLE_WITHIN_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For load balancers and orchestrators (docs/running-in-production.md, 'Health, readiness, metrics'):
 * `/healthz` answers while the process lives; `/readyz` only while the event store and the read database
 * answer and every projection runs and has caught up with the store's head within a bound, so a replica
 * that lags is taken out of rotation. On a process that follows the projection leader, 'caught up' means
 * the leader's checkpoints have passed the head and this process has seen them pass: a follower without
 * a live leader turns not ready.
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    private readonly progress: ProjectionProgress,
    private readonly projections: ProjectionsService,
  ) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) response: Response) {
    const [eventStore, readDatabase] = await Promise.all([check(() => this.store.headPosition()), check(() => sql`select 1`.execute(this.db))]);
    const failed = this.projections.failures();
    // the cause is named (SQLITE_FULL, a lost connection): the projections retry by themselves meanwhile
    let projections: Check = failed.length ? { ok: false, error: `stopped: ${failed.join(', ')} (${this.projections.failureCause()}; retrying)` } : { ok: true };
    if (projections.ok && eventStore.ok) {
      const caughtUp = await this.progress.waitFor(await this.store.headPosition(), CAUGHT_UP_WITHIN_MS);
      if (!caughtUp) projections = { ok: false, error: `not caught up with the event store within ${CAUGHT_UP_WITHIN_MS} ms` };
    }
    const checks = { event_store: eventStore, read_database: readDatabase, projections };
    const ready = Object.values(checks).every((result) => result.ok);
    response.status(ready ? 200 : 503);
    // events set aside (a poison event: docs/running-in-production.md, 'Read models that set events
    // aside'): writes answered 2xx that a read model does not show. Said here, but not a reason to be
    // unready: no restart or other replica cures an event's own fault, and taking every replica out of
    // rotation would turn one bad event into an outage.
    const setAside = readDatabase.ok ? await this.setAsideCounts() : null;
    // several processes on PostgreSQL (docs/adr/0017): whether this one writes the read models or follows
    // the one that does (a header: the body's shape stays the single process's); a follower is ready on
    // the same terms, its read models being the leader's
    const role = this.projections.role();
    if (role !== 'single') response.setHeader(PROJECTIONS_ROLE_HEADER, role);
    const warnings = setAside && setAside.total > 0 ? [`${setAside.total} event(s) set aside by ${Object.entries(setAside.by_projection).map(([name, count]) => `${name} (${count})`).join(', ')}: acknowledged writes missing from the read models; see the Projections screen (/audit/projections) to retry them`] : [];
    return { status: ready ? 'ready' : 'not_ready', checks, ...(setAside ? { set_aside: setAside } : {}), ...(warnings.length ? { warnings } : {}) };
  }

  private async setAsideCounts(): Promise<{ total: number; by_projection: Record<string, number> } | null> {
    try {
      const rows = await this.db.selectFrom('projection_set_aside').select('projection').select((eb) => eb.fn.countAll<number>().as('count')).groupBy('projection').execute();
      const byProjection = Object.fromEntries(rows.map((row) => [row.projection, Number(row.count)]));
      return { total: Object.values(byProjection).reduce((sum, count) => sum + count, 0), by_projection: byProjection };
    } catch {
      return null; // the read database's own check above names the fault
    }
  }
}
