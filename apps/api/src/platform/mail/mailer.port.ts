/** One message as the outbox hands it to a mailer: plain text, one recipient. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Where mails leave the process. `send` resolves once the mail was handed over (an SMTP server's
 * 250) and rejects on any failure; the outbox retries. Pick one with the configuration: SMTP when
 * ROLLCALL_SMTP_URL is set, else the log mailer.
 */
export interface Mailer {
  readonly kind: string;
  send(mail: Mail & { from: string }): Promise<void>;
  close?(): Promise<void> | void;
}

export const MAILER = Symbol('MAILER');
