import { Logger } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../platform/config/app-config';
import type { MailOutbox } from '../../platform/mail/mail-outbox';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import type { Clock } from '../../platform/runtime/clock';

/** What changed among an account's second factors, as its mail tells it (never a secret, never a code). */
export type SecondFactorNotice =
  | { change: 'added' | 'removed'; factor: 'totp' }
  | { change: 'added' | 'removed'; factor: 'passkey'; name: string }
  | { change: 'reset'; reason: string };

/** what a handler hands over to mail a notice: the read model (the account's address), the outbox, the mail settings, the clock */
export interface NoticeMailing {
  db: Kysely<ReadDatabase>;
  outbox: MailOutbox;
  config: AppConfig;
  clock: Clock;
}

const logger = new Logger('SecondFactorMails');

/** mails leave only where an operator configured them (SMTP, or the log mailer's file): unset, the development log would only print them */
const mailConfigured = (config: AppConfig) => config.mail.smtpUrl !== null || config.mail.logFile !== null;

/** '2026-11-26 19:50' (UTC), as the activation mail names times */
const utcText = (at: Date) => at.toISOString().slice(0, 16).replace('T', ' ');

function what(notice: SecondFactorNotice): { subject: string; sentence: string } {
  if (notice.change === 'reset') {
    return {
      subject: 'Rollcall: your second factors were reset',
      sentence: `an administrator reset the second factors of your Rollcall account: its authenticator app, passkeys and recovery codes were removed.\nThe reason given: ${notice.reason}`,
    };
  }
  const factor = notice.factor === 'totp' ? 'an authenticator app' : `the passkey "${notice.name}"`;
  return notice.change === 'added'
    ? { subject: 'Rollcall: a second factor was added to your account', sentence: `${factor} was added as a second factor to your Rollcall account.` }
    : { subject: 'Rollcall: a second factor was removed from your account', sentence: `${factor === 'an authenticator app' ? 'the authenticator app' : factor} was removed from the second factors of your Rollcall account.` };
}

/**
 * Tells the account by mail that a second factor was added or removed, or that an administrator
 * reset them (issue 24): someone who took over a session or a password cannot change the factors
 * unnoticed. Only where mail is configured; after the change was appended, through the outbox
 * (docs/adr/0008). A notice that cannot be queued is logged and does not undo the change.
 */
export async function mailSecondFactorNotice(mailing: NoticeMailing, accountId: string, notice: SecondFactorNotice): Promise<void> {
  if (!mailConfigured(mailing.config)) return;
  try {
    const account = await mailing.db.selectFrom('accounts_v2').select(['first_name', 'last_name', 'username', 'email']).where('id', '=', accountId).executeTakeFirst();
    if (!account?.email) return;
    const { subject, sentence } = what(notice);
    const page = `${mailing.config.mail.publicUrl}/me?tab=security`;
    const text = [
      `Hello ${`${account.first_name} ${account.last_name}`.trim() || account.username},`,
      '',
      `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`,
      `Account: ${account.username}, at ${utcText(mailing.clock.now())} UTC.`,
      '',
      `If this was not you, sign in, check your second factors on your own page (${page}), change your password and tell your administrator.`,
      '',
    ].join('\n');
    await mailing.outbox.enqueue({ kind: 'second_factor', accountId, to: account.email, subject, text });
  } catch (error) {
    logger.warn(`the second-factor notice to account ${accountId} was not queued: ${(error as Error).message}`);
  }
}
