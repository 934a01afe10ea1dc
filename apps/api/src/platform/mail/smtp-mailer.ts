import type { Transporter } from 'nodemailer';
import type { Mail, Mailer } from './mailer.port';

/** Bounded waits: a hanging server must not hold an outbox row past its lease (MAIL_LEASE_MS). */
const TIMEOUT_MS = 30_000;

/** Sends through the SMTP server of ROLLCALL_SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  /** nodemailer is loaded with the first mail (about 20 MB of an idle API's memory otherwise) */
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly url: string) {}

  async send(mail: Mail & { from: string }): Promise<void> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: this.url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS }),
    );
    await (await this.transport).sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    void this.transport?.then((transport) => transport.close());
  }
}
