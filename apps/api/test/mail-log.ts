import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the log mailer appends to ROLLCALL_MAIL_LOG_FILE, one JSON line per mail. */
export interface LoggedMail {
  at: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** Settings for a test app whose mails can be read back: the log mailer's file, a fast outbox. */
export const MAIL_LOG_SETTINGS = { ROLLCALL_MAIL_LOG_FILE: 'mail.log', ROLLCALL_MAIL_POLL_MS: '50' };

export function loggedMails(dataDir: string, file = 'mail.log'): LoggedMail[] {
  const path = join(dataDir, file);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedMail);
}

/** the token of an activation link in a mail's text */
export const activationTokenIn = (text: string): string | null => /\/activate\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

/** waits (bounded) for the outbox to deliver the n-th mail to `to`; mails leave asynchronously */
export async function waitForMail(dataDir: string, to: string, count = 1, timeoutMs = 10_000): Promise<LoggedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = loggedMails(dataDir).filter((mail) => mail.to === to);
    if (mails.length >= count) return mails[count - 1];
    if (Date.now() > deadline) throw new Error(`no mail #${count} to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** the token of the newest activation mail to `to` (the n-th mail to that address) */
export async function activationTokenFor(dataDir: string, to: string, count = 1): Promise<string> {
  const mail = await waitForMail(dataDir, to, count);
  const token = activationTokenIn(mail.text);
  if (!token) throw new Error(`mail to ${to} carries no activation link: ${mail.text}`);
  return token;
}
