import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { accountDecider, accountStream, AWAITING_ACTIVATION, DomainError } from '@rollcall/domain';
import { handleCommand, loadState } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import { systemContext, type RequestContext } from '../../platform/commands/request-context';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '../../platform/tokens';
import type { EventStore, Position } from '../../platform/event-store/event-store.port';
import { ACTIVATION_EXPIRY_MARK, ACTIVATION_LINK_MARK, MailOutbox, type OutboxRow } from '../../platform/mail/mail-outbox';

/** 256 random bits, URL-safe: the only copy leaves in the mail */
export const newActivationToken = (): string => randomBytes(32).toString('base64url');
/** what events and read models keep of a token */
export const hashActivationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export const activationLink = (publicUrl: string, token: string) => `${publicUrl}/activate/${token}`;

/** how a mail names the link's end: '2026-11-29 08:00' (UTC) */
const expiryText = (expiresAt: string) => expiresAt.slice(0, 16).replace('T', ' ');

interface HeldToken {
  token: string;
  expiresAt: string;
  accountId: string;
}

/**
 * Activation and welcome mails of an account. An account awaiting activation (status 4) gets a new
 * single-use link: `ActivationIssued` (SHA-256 only) is appended first, then the mail goes to the
 * outbox WITHOUT its link (docs/adr/0008, amendment 1): the clear token is held in this process's
 * memory only, and put into the text when the sender renders the mail. Nothing that grants access
 * is ever written to the data files (not even for a moment: the WAL and freed pages keep what was
 * written). If the token is gone when the mail is sent (a restart, or another API process leased the
 * row), a new link is issued then, which kills the old one nobody received.
 *
 * A crash between the event and the outbox row leaves a link nobody received: the account still
 * awaits activation and an administrator resends (POST account/{id}/activation).
 */
@Injectable()
export class ActivationMails implements OnModuleInit {
  private readonly logger = new Logger('ActivationMails');
  /** outbox row id -> the clear token of its link; never written anywhere */
  private readonly held = new Map<string, HeldToken>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  onModuleInit(): void {
    this.outbox.registerRenderer('activation', { render: (row) => this.render(row), settled: (id) => void this.held.delete(id) });
  }

  /** `welcomeIfActive`: at creation with a password the mail only welcomes and links to sign-in */
  async send(accountId: string, context: RequestContext, welcomeIfActive = false): Promise<Position | null> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    const { publicUrl } = this.config.mail;
    const greeting = `Hello ${state.firstName} ${state.lastName},`;
    if (state.statusId !== AWAITING_ACTIVATION && welcomeIfActive) {
      await this.outbox.enqueue({
        kind: 'welcome',
        accountId,
        to: state.email,
        subject: 'Your Rollcall account',
        text: `${greeting}\n\nan account with the username "${state.username}" was created for you.\nSign in here with the password you were given: ${publicUrl}/login\n`,
      });
      return null;
    }
    // the decider refuses accounts that do not await activation (activation.not_awaiting)
    const { token, expiresAt, position } = await this.issue(accountId, context);
    const id = randomUUID();
    this.forgetAccount(accountId);
    this.held.set(id, { token, expiresAt, accountId });
    try {
      await this.outbox.enqueue({
        id,
        kind: 'activation',
        accountId,
        to: state.email,
        subject: 'Activate your Rollcall account',
        text:
          `${greeting}\n\nan account with the username "${state.username}" was created for you.\n` +
          `Choose your password here (the link works once, until ${ACTIVATION_EXPIRY_MARK} UTC):\n\n${ACTIVATION_LINK_MARK}\n\n` +
          `If you did not expect this mail, ignore it.\n`,
      });
    } catch (error) {
      this.held.delete(id);
      throw error;
    }
    return position;
  }

  /** a new link: only its hash is stored (ActivationIssued), the clear token is answered */
  private async issue(accountId: string, context: RequestContext): Promise<{ token: string; expiresAt: string; position: Position }> {
    const token = newActivationToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.mail.activationHours * 3_600_000).toISOString();
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'IssueActivation', data: { tokenHash: hashActivationToken(token), expiresAt, issuedAt: now.toISOString() } }, context);
    return { token, expiresAt, position: result.position };
  }

  /** an unsent earlier mail of the account is superseded by the outbox: its token goes too */
  private forgetAccount(accountId: string): void {
    const now = this.clock.now().toISOString();
    for (const [id, held] of this.held) if (held.accountId === accountId || held.expiresAt <= now) this.held.delete(id);
  }

  /**
   * The text of an activation mail as it leaves: the link put in from memory, or, when this process
   * does not hold the token (it restarted, or another process queued the mail) or it has expired, a
   * new link issued now. Null when the account no longer awaits activation: the mail is dropped.
   */
  private async render(row: OutboxRow): Promise<string | null> {
    let held = this.held.get(row.id);
    if (!held || held.expiresAt <= this.clock.now().toISOString()) {
      if (!row.account_id) return null;
      const state = await loadState(this.store, accountDecider, accountStream(row.account_id));
      if (state.status !== 'created' || state.statusId !== AWAITING_ACTIVATION) return null;
      try {
        const { token, expiresAt } = await this.issue(row.account_id, systemContext());
        held = { token, expiresAt, accountId: row.account_id };
      } catch (error) {
        if (error instanceof DomainError) return null;
        throw error;
      }
      this.logger.log(`activation mail ${row.id}: its link was not held by this process, a new one was issued`);
      this.held.set(row.id, held);
    }
    return row.body.replaceAll(ACTIVATION_LINK_MARK, activationLink(this.config.mail.publicUrl, held.token)).replaceAll(ACTIVATION_EXPIRY_MARK, expiryText(held.expiresAt));
  }
}
