import { appendFile } from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import type { Mail, Mailer } from './mailer.port';

/**
 * Development default: the mail (and so its link) goes to the log, where a developer can click it.
 * With ROLLCALL_MAIL_LOG_FILE it goes to that file instead (mode 0600), one JSON line a mail, which
 * end-to-end tests read; the log then names only recipient and subject. Never use it where the log
 * or the file is readable by people who must not activate accounts: production sets ROLLCALL_SMTP_URL.
 */
export class LogMailer implements Mailer {
  readonly kind = 'log';
  private readonly logger = new Logger('Mail');

  constructor(private readonly file: string | null) {}

  async send(mail: Mail & { from: string }): Promise<void> {
    if (!this.file) {
      this.logger.log(`mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
      return;
    }
    // with a file the text (an activation link grants access) goes there only, not to the shared log
    await appendFile(this.file, `${JSON.stringify({ at: new Date().toISOString(), ...mail })}\n`, { mode: 0o600 });
    this.logger.log(`mail to ${mail.to}: ${mail.subject} (text in ${this.file})`);
  }
}
