import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/app-config';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('mail configuration', () => {
  it('defaults to the log mailer, links on localhost:<PORT>, 72 hours', () => {
    expect(loadConfig({ PORT: '4100' }).mail).toEqual({
      publicUrl: 'http://localhost:4100',
      smtpUrl: null,
      from: 'Rollcall <no-reply@localhost>',
      logFile: null,
      activationHours: 72,
      pollMs: 2000,
      retryBaseMs: 5000,
      maxAttempts: 8,
    });
  });

  it('takes SMTP, sender, public URL (without a trailing slash) and a log file under the data dir', () => {
    const { mail, dataDir } = loadConfig({ ROLLCALL_SMTP_URL: 'smtps://u:p@mail.example.com:465', ROLLCALL_MAIL_FROM: 'Rollcall <rc@example.com>', ROLLCALL_PUBLIC_URL: 'https://rc.example.com/', ROLLCALL_MAIL_LOG_FILE: 'mail.log', ROLLCALL_ACTIVATION_HOURS: '0.5' });
    expect(mail).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'Rollcall <rc@example.com>', publicUrl: 'https://rc.example.com', logFile: `${dataDir}/mail.log`, activationHours: 0.5 });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(refused({ ROLLCALL_SMTP_URL: 'http://mail.example.com' })).toContain('ROLLCALL_SMTP_URL must be an smtp:// or smtps:// URL');
    expect(refused({ ROLLCALL_PUBLIC_URL: 'rollcall.example.com' })).toContain('ROLLCALL_PUBLIC_URL must be an http(s) URL');
    expect(refused({ ROLLCALL_MAIL_FROM: 'nobody' })).toContain('ROLLCALL_MAIL_FROM must be an address');
    expect(refused({ ROLLCALL_ACTIVATION_HOURS: '0' })).toContain('ROLLCALL_ACTIVATION_HOURS must be more than 0');
    expect(refused({ ROLLCALL_MAIL_MAX_ATTEMPTS: '0' })).toContain('ROLLCALL_MAIL_MAX_ATTEMPTS must be at least 1');
  });
});
