import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../tokens';
import { LogMailer } from './log-mailer';
import { MailOutbox } from './mail-outbox';
import { MailOutboxSender } from './mail-outbox-sender';
import { MAILER, type Mailer } from './mailer.port';
import { SmtpMailer } from './smtp-mailer';

export const createMailer = (config: AppConfig['mail']): Mailer => (config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new LogMailer(config.logFile));

/** The outbox, its sender and the configured mailer; features enqueue through MailOutbox. */
@Global()
@Module({
  providers: [{ provide: MAILER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createMailer(config.mail) }, MailOutbox, MailOutboxSender],
  exports: [MailOutbox],
})
export class MailModule {}
