import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TReaderHealthReport } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';

const CONTACT_FLUSH_MS = 1000;

/**
 * A reader's health (last contact, queue depth, oldest queued scan, clock skew) is operational data, not an event (docs/adr/0013):
 * a health report is written at once (last write wins); the contact time of scan posts is noted in
 * memory and written once a second, so scans never wait for it. A crash loses at most a second of
 * 'last contact', never a scan.
 */
@Injectable()
export class ReaderHealthRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ReaderHealth');
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('reader_health')
      .ifNotExists()
      .addColumn('reader_id', 'text', (c) => c.primaryKey())
      .addColumn('last_contact_at', 'text', (c) => c.notNull())
      .addColumn('queue_depth', 'integer')
      .addColumn('device_connected', 'integer')
      .addColumn('agent_version', 'text')
      .addColumn('oldest_queued_at', 'text')
      .addColumn('clock_skew_ms', 'integer')
      .execute();
    // a table made before these columns existed gets them (the table holds only the latest reports)
    // PostgreSQL's introspection lists every schema's tables: ours is the one in the current (read) schema
    const tables = (await this.db.introspection.getTables()).filter((candidate) => candidate.name === 'reader_health');
    const current = tables.some((candidate) => candidate.schema) ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(this.db)).rows[0]?.schema : undefined;
    const table = tables.find((candidate) => !candidate.schema || candidate.schema === current);
    const columns = new Set(table?.columns.map((column) => column.name));
    if (!columns.has('oldest_queued_at')) await this.db.schema.alterTable('reader_health').addColumn('oldest_queued_at', 'text').execute();
    if (!columns.has('clock_skew_ms')) await this.db.schema.alterTable('reader_health').addColumn('clock_skew_ms', 'integer').execute();
    // the agent's intake and dead letters (docs/security.md, 'Door agent faults'): added to a table made
    // before them, as above
    for (const [column, type] of [['intake_state', 'text'], ['intake_error', 'text'], ['intake_since', 'text'], ['dead_letters', 'integer'], ['last_dead_letter', 'text']] as const) {
      if (!columns.has(column)) await this.db.schema.alterTable('reader_health').addColumn(column, type).execute();
    }
    this.timer = setInterval(() => void this.flush(), CONTACT_FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  noteContact(readerId: string, at: string): void {
    this.pending.set(readerId, at);
  }

  async report(readerId: string, report: TReaderHealthReport, at: string): Promise<void> {
    this.pending.delete(readerId);
    const latest = {
      last_contact_at: at,
      queue_depth: report.queue_depth,
      device_connected: report.device_connected ? 1 : 0,
      agent_version: report.agent_version,
      oldest_queued_at: report.oldest_queued_at,
      clock_skew_ms: Math.round(Date.parse(at) - Date.parse(report.sent_at)),
      intake_state: report.intake?.state ?? null,
      intake_error: report.intake?.error ?? null,
      intake_since: report.intake?.since ?? null,
      dead_letters: report.dead_letters ?? null,
      last_dead_letter: report.last_dead_letter ? JSON.stringify(report.last_dead_letter) : null,
    };
    await this.db
      .insertInto('reader_health')
      .values({ reader_id: readerId, ...latest })
      .onConflict((oc) => oc.column('reader_id').doUpdateSet(latest))
      .execute();
  }

  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending];
    this.pending = new Map();
    try {
      for (const [reader_id, last_contact_at] of batch) {
        await this.db
          .insertInto('reader_health')
          .values({ reader_id, last_contact_at, queue_depth: null, device_connected: null, agent_version: null, oldest_queued_at: null, clock_skew_ms: null, intake_state: null, intake_error: null, intake_since: null, dead_letters: null, last_dead_letter: null })
          .onConflict((oc) => oc.column('reader_id').doUpdateSet({ last_contact_at }).where('reader_health.last_contact_at', '<', last_contact_at))
          .execute();
      }
    } catch (error) {
      this.logger.warn(`could not write reader contact times: ${(error as Error).message}`);
    }
  }
}
