import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Clock } from '../application/clock';
import { CLOCK, READ_DB } from '../core/tokens';
import type { ReadDatabase } from '../read-db/read-database';
import type { Mail } from './mailer.port';

export interface OutboxMail extends Mail {
  kind: 'activation' | 'welcome';
  accountId: string | null;
}

/**
 * The durable queue of mails (docs/adr/0008). A row is written after the event that needs the mail
 * was appended; the sender (MailOutboxSender) drains it. The table lives in the read database but
 * is no projection: nothing rebuilds it, and a replay leaves it alone.
 */
@Injectable()
export class MailOutbox implements OnModuleInit {
  private readonly listeners = new Set<() => void>();

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('mail_outbox_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await this.db.schema.createIndex('mail_outbox_v1_due').ifNotExists().on('mail_outbox_v1').columns(['status', 'next_attempt_at']).execute();
    await this.db.schema.createIndex('mail_outbox_v1_account').ifNotExists().on('mail_outbox_v1').columns(['account_id', 'kind']).execute();
  }

  /**
   * Queues a mail. An activation mail replaces an unsent earlier one of the same account: its link
   * no longer works, so it is never sent and its body (the old link) is cleared at once.
   */
  async enqueue(mail: OutboxMail): Promise<string> {
    const id = randomUUID();
    const now = this.clock.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      if (mail.kind === 'activation' && mail.accountId) {
        await trx
          .updateTable('mail_outbox_v1')
          .set({ status: 'superseded', body: '', lease_until: null })
          .where('account_id', '=', mail.accountId)
          .where('kind', '=', 'activation')
          .where('status', '=', 'pending')
          .execute();
      }
      await trx
        .insertInto('mail_outbox_v1')
        .values({
          id,
          kind: mail.kind,
          account_id: mail.accountId,
          recipient: mail.to,
          subject: mail.subject,
          body: mail.text,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          lease_until: null,
          last_error: null,
          created_at: now,
          sent_at: null,
        })
        .execute();
    });
    for (const listener of this.listeners) listener();
    return id;
  }

  /** the sender is told of new mails so they leave at once instead of at the next poll */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
