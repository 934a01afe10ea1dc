import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedMails, MAIL_LOG_SETTINGS, type LoggedMail } from '../../../test/mail-log';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { READ_DB } from '../../platform/tokens';
import { totpCodeAt } from '../auth/second-factor/totp-codes';

/**
 * The account is told by mail when a second factor is added or removed, or an administrator resets
 * them (issue 24), where mail is configured (here the log mailer's file, as the activation suite
 * reads it); never with a secret or a code in it. Without mail configured nothing is queued.
 */
describe('mails about second factors (sqlite)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let origin: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', MAIL_LOG_SETTINGS);
    origin = app.url.replace('127.0.0.1', 'localhost');
    admin = http(origin, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  /** waits (bounded) for a mail to `to` whose subject is `subject`, the n-th of them; the outbox sends asynchronously */
  async function mailTo(to: string, subject: string, count = 1): Promise<LoggedMail> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const mails = loggedMails(app.config.dataDir).filter((mail) => mail.to === to && mail.subject === subject);
      if (mails.length >= count) return mails[count - 1];
      if (Date.now() > deadline) throw new Error(`no mail #${count} '${subject}' to ${to}: ${JSON.stringify(loggedMails(app.config.dataDir).filter((mail) => mail.to === to).map((mail) => mail.subject))}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function withApp(account: { username: string; password: string }) {
    const own = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    const started = (await own.post('/api/v2/second-factors/totp', undefined, { origin })).body.data;
    const confirmed = await own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { own, secret: started.secret as string, recoveryCodes: confirmed.body.data.recovery_codes as string[] };
  }

  it('tells the account of an app and a passkey added and removed, naming them and never a secret', async () => {
    const account = await createAccount(admin, { first_name: 'Grace', last_name: 'Hopper' });
    const { own, secret, recoveryCodes } = await withApp(account);
    const added = await mailTo(account.email, 'Rollcall: a second factor was added to your account');
    expect(added.text).toContain('Hello Grace Hopper,');
    expect(added.text).toContain('An authenticator app was added as a second factor to your Rollcall account.');
    expect(added.text).toContain(`Account: ${account.username}, at `);
    expect(added.text).toContain('/me?tab=security');

    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await own.post('/api/v2/second-factors/passkeys/registration-options', { code: recoveryCodes[0] }, { origin })).body.data.options;
    const registered = await own.post('/api/v2/second-factors/passkeys', { name: 'Work laptop', response: authenticator.register(options) }, { origin });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect((await mailTo(account.email, 'Rollcall: a second factor was added to your account', 2)).text).toContain('The passkey "Work laptop" was added as a second factor');

    const removedPasskey = await own.raw('DELETE', `/api/v2/second-factors/passkeys/${String(registered.body.data.id)}`, { code: recoveryCodes[1] });
    expect(removedPasskey.status, JSON.stringify(removedPasskey.body)).toBe(200);
    expect((await mailTo(account.email, 'Rollcall: a second factor was removed from your account')).text).toContain('The passkey "Work laptop" was removed from the second factors of your Rollcall account.');
    const removedApp = await own.raw('DELETE', '/api/v2/second-factors/totp', { code: recoveryCodes[2] });
    expect(removedApp.status, JSON.stringify(removedApp.body)).toBe(200);
    expect((await mailTo(account.email, 'Rollcall: a second factor was removed from your account', 2)).text).toContain('The authenticator app was removed from the second factors');

    // nothing secret leaves by mail: not the app's secret, not a recovery code, not the credential
    const mails = JSON.stringify(loggedMails(app.config.dataDir).filter((mail) => mail.to === account.email));
    for (const secretText of [secret, ...recoveryCodes, authenticator.id]) expect(mails).not.toContain(secretText);
  });

  it("tells the account of an administrator's reset, with the reason", async () => {
    const account = await createAccount(admin);
    await withApp(account);
    const reset = await admin.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: 'Lost phone on the train' });
    expect(reset.status, JSON.stringify(reset.body)).toBeLessThan(300);
    const mail = await mailTo(account.email, 'Rollcall: your second factors were reset');
    expect(mail.text).toContain('An administrator reset the second factors of your Rollcall account');
    expect(mail.text).toContain('The reason given: Lost phone on the train');
  });
});

describe('no mails about second factors where mail is not configured (sqlite)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('queues none', async () => {
    const admin = http(app.url, await signIn(app.url));
    const account = await createAccount(admin);
    const own = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    const started = (await own.post('/api/v2/second-factors/totp')).body.data;
    expect((await own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) })).status).toBe(200);
    expect((await admin.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: 'Lost phone' })).status).toBeLessThan(300);
    const queued = await app.app.get<Kysely<ReadDatabase>>(READ_DB).selectFrom('mail_outbox_v1').select('kind').where('account_id', '=', account.id).execute();
    expect(queued.filter((row) => row.kind === 'second_factor')).toEqual([]);
  });
});
