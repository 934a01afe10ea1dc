import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { accountDecider, accountStream, AWAITING_ACTIVATION, DomainError } from '@rollcall/domain';
import { handleCommand, loadState } from '../application/aggregate-repository';
import type { Clock } from '../application/clock';
import type { RequestContext } from '../application/request-context';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '../core/tokens';
import type { EventStore, Position } from '../event-store/event-store.port';
import { MailOutbox } from '../mail/mail-outbox';

/** 256 random bits, URL-safe: the only copy leaves in the mail */
export const newActivationToken = (): string => randomBytes(32).toString('base64url');
/** what events and read models keep of a token */
export const hashActivationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export const activationLink = (publicUrl: string, token: string) => `${publicUrl}/activate/${token}`;

/**
 * Activation and welcome mails of an account. An account awaiting activation (status 4) gets a new
 * single-use link: `ActivationIssued` (SHA-256 only) is appended first, then the mail with the clear
 * link goes to the outbox. A crash between the two leaves a link nobody received: the account still
 * awaits activation and an administrator resends (POST account/{id}/activation).
 */
@Injectable()
export class ActivationMails {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  /** `welcomeIfActive`: at creation with a password the mail only welcomes and links to sign-in */
  async send(accountId: string, context: RequestContext, welcomeIfActive = false): Promise<Position | null> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    const { publicUrl, activationHours } = this.config.mail;
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
    const token = newActivationToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + activationHours * 3_600_000).toISOString();
    // the decider refuses accounts that do not await activation (activation.not_awaiting)
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'IssueActivation', data: { tokenHash: hashActivationToken(token), expiresAt, issuedAt: now.toISOString() } }, context);
    await this.outbox.enqueue({
      kind: 'activation',
      accountId,
      to: state.email,
      subject: 'Activate your Rollcall account',
      text:
        `${greeting}\n\nan account with the username "${state.username}" was created for you.\n` +
        `Choose your password here (the link works once, until ${expiresAt.slice(0, 16).replace('T', ' ')} UTC):\n\n${activationLink(publicUrl, token)}\n\n` +
        `If you did not expect this mail, ignore it.\n`,
    });
    return result.position;
  }
}
