import nodemailer, { type Transporter } from 'nodemailer';
import type { Mail, Mailer } from './mailer.port';

/** Bounded waits: a hanging server must not hold an outbox row past its lease (MAIL_LEASE_MS). */
const TIMEOUT_MS = 30_000;

/** Sends through the SMTP server of ROLLCALL_SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(url: string) {
    this.transport = nodemailer.createTransport({ url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  }

  async send(mail: Mail & { from: string }): Promise<void> {
    await this.transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.transport.close();
  }
}
