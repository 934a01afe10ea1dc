import { appendFile } from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import type { Mail, Mailer } from './mailer.port';

/**
 * Development default: the mail (and so its link) goes to the log, where a developer can click it.
 * With ROLLCALL_MAIL_LOG_FILE it is also appended to that file as one JSON line, which end-to-end
 * tests read. Never use it where the log is shared with people who must not activate accounts.
 */
export class LogMailer implements Mailer {
  readonly kind = 'log';
  private readonly logger = new Logger('Mail');

  constructor(private readonly file: string | null) {}

  async send(mail: Mail & { from: string }): Promise<void> {
    this.logger.log(`mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
    if (this.file) await appendFile(this.file, `${JSON.stringify({ at: new Date().toISOString(), ...mail })}\n`, { mode: 0o600 });
  }
}
