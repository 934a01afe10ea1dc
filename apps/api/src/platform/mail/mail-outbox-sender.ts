import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Clock } from '../runtime/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK, READ_DB } from '../tokens';
import type { ReadDatabase } from '../read-db/read-database';
import { MailOutbox } from './mail-outbox';
import { MAILER, type Mailer } from './mailer.port';

/** longer than a mailer's worst wait (SmtpMailer's timeouts), so a live sender never loses its row */
export const MAIL_LEASE_MS = 120_000;
const MAX_BACKOFF_MS = 3_600_000;
const BATCH = 20;

/**
 * Drains the outbox: each due row is leased (so several API processes never send it at once),
 * rendered (an activation mail gets its link here, see MailOutbox.render), sent, then marked sent
 * with its body cleared. A failure waits retryBase * 2^(attempts-1) (at most
 * an hour) and gives up as 'failed' after maxAttempts. A row is marked only after its mail was
 * handed over, so a crash between the two sends it again when the lease expires: at least once.
 */
@Injectable()
export class MailOutboxSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MailOutbox');
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> = Promise.resolve();
  private again = false;
  private running = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly outbox: MailOutbox,
  ) {
    this.unsubscribe = outbox.onEnqueued(() => this.kick());
  }

  onApplicationBootstrap(): void {
    this.logger.log(`mails go through the ${this.mailer.kind} mailer`);
    this.timer = setInterval(() => this.kick(), this.config.mail.pollMs);
    this.timer.unref();
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.draining;
    await this.mailer.close?.();
  }

  /** one drain at a time; a kick during a drain runs one more round after it */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          await this.drainOnce();
        } while (this.again && !this.stopped);
      } catch (error) {
        this.logger.warn(`outbox drain failed: ${(error as Error).message}`);
      } finally {
        this.running = false;
      }
    })();
  }

  /** one round: every due row, oldest first */
  async drainOnce(): Promise<void> {
    const now = this.clock.now().toISOString();
    const due = await this.db
      .selectFrom('mail_outbox_v1')
      .select(['id', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    for (const row of due) {
      if (this.stopped) return;
      await this.sendOne(row.id, row.attempts);
    }
    if (due.length === BATCH) this.again = true;
  }

  private async sendOne(id: string, attempts: number): Promise<void> {
    const now = this.clock.now();
    const attempt = attempts + 1;
    // the lease is the claim: only the process whose update matched sends
    const claimed = await this.db
      .updateTable('mail_outbox_v1')
      .set({ lease_until: new Date(now.getTime() + MAIL_LEASE_MS).toISOString(), attempts: attempt })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempts)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const row = await this.db.selectFrom('mail_outbox_v1').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    try {
      // the text that leaves is made now: an activation link exists only in memory, never in the row
      const text = await this.outbox.render(row);
      if (text === null) {
        await this.db.updateTable('mail_outbox_v1').set({ status: 'superseded', body: '', lease_until: null }).where('id', '=', id).execute();
        this.outbox.settled(row);
        return;
      }
      await this.mailer.send({ from: this.config.mail.from, to: row.recipient, subject: row.subject, text });
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const givingUp = attempt >= this.config.mail.maxAttempts;
      const delay = Math.min(MAX_BACKOFF_MS, this.config.mail.retryBaseMs * 2 ** (attempt - 1));
      await this.db
        .updateTable('mail_outbox_v1')
        .set({
          lease_until: null,
          last_error: message.slice(0, 1000),
          next_attempt_at: new Date(this.clock.now().getTime() + delay).toISOString(),
          // a mail given up on keeps no link: an administrator sends a new one
          ...(givingUp ? { status: 'failed', body: '' } : {}),
        })
        .where('id', '=', id)
        .execute();
      this.logger.warn(`mail ${id} to ${row.recipient} failed (attempt ${attempt} of ${this.config.mail.maxAttempts})${givingUp ? ', giving up' : ''}: ${message}`);
      if (givingUp) this.outbox.settled(row);
      return;
    }
    await this.db
      .updateTable('mail_outbox_v1')
      .set({ status: 'sent', body: '', lease_until: null, last_error: null, sent_at: this.clock.now().toISOString() })
      .where('id', '=', id)
      .execute();
    this.outbox.settled(row);
  }
}
