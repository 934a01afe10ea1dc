import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG, READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';

const ROWS_PER_STATEMENT = 500;

/**
 * `last_used_at` of access tokens without a write per request: uses are noted in memory and written
 * as one upsert per interval (ROLLCALL_TOKEN_USAGE_FLUSH_MS) and at shutdown. A later time never
 * loses to an earlier one, so several API processes may flush in any order. A crash loses at most
 * one interval of 'last used' times, never an event.
 */
@Injectable()
export class TokenUsageRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TokenUsage');
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('access_token_usage')
      .ifNotExists()
      .addColumn('token_id', 'text', (c) => c.primaryKey())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .execute();
    this.timer = setInterval(() => void this.flush(), this.config.tokenUsageFlushMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  noteUse(tokenId: string, at: string): void {
    this.pending.set(tokenId, at);
  }

  /** writes what was noted since the last flush; flushes never overlap */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending].map(([token_id, last_used_at]) => ({ token_id, last_used_at }));
    this.pending = new Map();
    try {
      for (let start = 0; start < batch.length; start += ROWS_PER_STATEMENT) {
        await this.db
          .insertInto('access_token_usage')
          .values(batch.slice(start, start + ROWS_PER_STATEMENT))
          .onConflict((oc) =>
            oc
              .column('token_id')
              .doUpdateSet({ last_used_at: (eb) => eb.ref('excluded.last_used_at') })
              .where('excluded.last_used_at', '>', (eb) => eb.ref('access_token_usage.last_used_at')),
          )
          .execute();
      }
    } catch (error) {
      // keep the times for the next interval unless newer ones arrived meanwhile
      for (const { token_id, last_used_at } of batch) if (!this.pending.has(token_id)) this.pending.set(token_id, last_used_at);
      this.logger.warn(`could not write token last-used times: ${(error as Error).message}`);
    }
  }
}
