import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Clock } from '../runtime/clock';
import { CLOCK, READ_DB } from '../tokens';
import type { ReadDatabase } from '../read-db/read-database';
import type { Mail } from './mailer.port';

export interface OutboxMail extends Mail {
  kind: 'activation' | 'welcome' | 'second_factor';
  accountId: string | null;
  /** the row's id, when the caller must know it before the row exists (default: a new UUID) */
  id?: string;
}

/** a queued mail as a renderer sees it */
export interface OutboxRow {
  id: string;
  kind: string;
  account_id: string | null;
  body: string;
}

/**
 * Makes the text that leaves from the stored body, at send time. Activation mails are stored
 * without their link (docs/adr/0008, amendment 1): the link's token is held in memory only and put
 * in here. `render` answers null when the mail must not leave any more (it is then superseded);
 * `settled` is told once the row is sent or given up, so the token is dropped.
 */
export interface OutboxRenderer {
  render(row: OutboxRow): Promise<string | null>;
  settled(id: string): void;
}

/** what an activation mail's stored body holds in place of its link and of the link's expiry */
export const ACTIVATION_LINK_MARK = '{{activation_link}}';
export const ACTIVATION_EXPIRY_MARK = '{{activation_expires}}';
/** the clear link of rows written before amendment 1, and its expiry (they are rewritten at start) */
const LEGACY_LINK = /\S*\/activate\/[A-Za-z0-9_-]+/g;
const LEGACY_EXPIRY = /until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g;

/**
 * The durable queue of mails (docs/adr/0008). A row is written after the event that needs the mail
 * was appended; the sender (MailOutboxSender) drains it. The table lives in the read database but
 * is no projection: nothing rebuilds it, and a replay leaves it alone.
 */
@Injectable()
export class MailOutbox implements OnModuleInit {
  private readonly listeners = new Set<() => void>();
  private readonly renderers = new Map<string, OutboxRenderer>();

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
    await this.forgetLegacyLinks();
  }

  /**
   * Rows queued before amendment 1 of docs/adr/0008 hold their clear link: it is replaced by the
   * mark, so the sender issues a new link when it sends them (the old one is never mailed).
   */
  private async forgetLegacyLinks(): Promise<void> {
    const rows = await this.db.selectFrom('mail_outbox_v1').select(['id', 'body']).where('kind', '=', 'activation').where('status', '=', 'pending').where('body', 'like', '%/activate/%').execute();
    for (const row of rows) {
      const body = row.body.replace(LEGACY_LINK, ACTIVATION_LINK_MARK).replace(LEGACY_EXPIRY, `until ${ACTIVATION_EXPIRY_MARK} UTC`);
      await this.db.updateTable('mail_outbox_v1').set({ body }).where('id', '=', row.id).execute();
    }
  }

  /** the renderer of a kind of mail (one per kind); kinds without one leave with their stored body */
  registerRenderer(kind: OutboxMail['kind'], renderer: OutboxRenderer): void {
    this.renderers.set(kind, renderer);
  }

  /** the text that leaves for a row, or null when it must not leave any more */
  async render(row: OutboxRow): Promise<string | null> {
    const renderer = this.renderers.get(row.kind);
    return renderer ? renderer.render(row) : row.body;
  }

  /** a row was sent, given up on or superseded: its renderer forgets what it held for it */
  settled(row: Pick<OutboxRow, 'id' | 'kind'>): void {
    this.renderers.get(row.kind)?.settled(row.id);
  }

  /**
   * Queues a mail. An activation mail replaces an unsent earlier one of the same account: its link
   * no longer works, so it is never sent and its body is cleared at once.
   */
  async enqueue(mail: OutboxMail): Promise<string> {
    const id = mail.id ?? randomUUID();
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
