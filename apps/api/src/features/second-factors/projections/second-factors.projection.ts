import { SECOND_FACTOR_EVENT_TYPES, type SecondFactorEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { SecondFactorTable } from '../second-factors.tables';

const empty = (accountId: string): SecondFactorTable => ({
  account_id: accountId,
  totp_enrolment_id: null,
  totp_status: null,
  totp_enrolled_at: null,
  totp_last_used_at: null,
  recovery_codes_remaining: 0,
  recovery_codes_generated_at: null,
});

/**
 * second_factors_v1: per account, what is enrolled and how many recovery codes remain; and
 * passkeys_v1 beside it, a row per passkey with its name (docs/adr/0029). No secret
 * reaches it (the sealed TOTP secret and the code hashes stay in the events). Each event sets
 * values, never adds to them, so applying one again leaves the same row.
 */
export class SecondFactorsProjection implements Projection {
  readonly name = 'second_factors_v1';
  readonly eventTypes = SECOND_FACTOR_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('second_factors_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('totp_enrolment_id', 'text')
      .addColumn('totp_status', 'text')
      .addColumn('totp_enrolled_at', 'text')
      .addColumn('totp_last_used_at', 'text')
      .addColumn('recovery_codes_remaining', 'integer', (c) => c.notNull())
      .addColumn('recovery_codes_generated_at', 'text')
      .execute();
    await db.schema
      .createTable('passkeys_v1')
      .ifNotExists()
      .addColumn('passkey_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('credential_id', 'text', (c) => c.notNull())
      .addColumn('synced', 'integer', (c) => c.notNull())
      .addColumn('registered_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_v1_account').ifNotExists().on('passkeys_v1').column('account_id').execute();
    await db.schema.createIndex('passkeys_v1_credential').ifNotExists().on('passkeys_v1').column('credential_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('second_factors_v1').ifExists().execute();
    await db.schema.dropTable('passkeys_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as SecondFactorEvent;
    const accountId = event.data.accountId;
    const set = async (changes: Partial<SecondFactorTable>) => {
      await trx
        .insertInto('second_factors_v1')
        .values({ ...empty(accountId), ...changes })
        .onConflict((oc) => (Object.keys(changes).length ? oc.column('account_id').doUpdateSet(changes) : oc.column('account_id').doNothing()))
        .execute();
    };
    const passkeysLeft = async () => Number((await trx.selectFrom('passkeys_v1').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId).executeTakeFirst())?.n ?? 0);
    const noCodes = { recovery_codes_remaining: 0, recovery_codes_generated_at: null };
    switch (event.type) {
      case 'TotpEnrolmentStarted':
        return set({ totp_enrolment_id: event.data.enrolmentId, totp_status: 'pending', totp_enrolled_at: null, totp_last_used_at: null });
      case 'TotpEnrolled':
        return set({ totp_enrolment_id: event.data.enrolmentId, totp_status: 'enrolled', totp_enrolled_at: event.data.enrolledAt });
      case 'TotpUsed':
        return set({ totp_last_used_at: event.data.at });
      case 'TotpRemoved':
        // the last factor takes the recovery codes with it (libs/domain/src/second-factor)
        return set({ totp_enrolment_id: null, totp_status: null, totp_enrolled_at: null, totp_last_used_at: null, ...((await passkeysLeft()) > 0 ? {} : noCodes) });
      case 'RecoveryCodesGenerated':
        return set({ recovery_codes_remaining: event.data.count, recovery_codes_generated_at: event.data.generatedAt });
      case 'RecoveryCodeUsed':
        return set({ recovery_codes_remaining: event.data.remaining });
      case 'SecondFactorsReset':
        await trx.deleteFrom('passkeys_v1').where('account_id', '=', accountId).execute();
        return set({ ...empty(accountId) });
      case 'PasskeyRegistered':
        await trx
          .insertInto('passkeys_v1')
          .values({ passkey_id: event.data.passkeyId, account_id: accountId, name: event.data.name, credential_id: event.data.credential.credentialId, synced: event.data.credential.deviceType === 'multiDevice' ? 1 : 0, registered_at: event.data.registeredAt, last_used_at: null })
          .onConflict((oc) => oc.column('passkey_id').doNothing())
          .execute();
        return set({});
      case 'PasskeyRenamed':
        await trx.updateTable('passkeys_v1').set({ name: event.data.name }).where('passkey_id', '=', event.data.passkeyId).execute();
        return;
      case 'PasskeyUsed':
        await trx.updateTable('passkeys_v1').set({ last_used_at: event.data.at }).where('passkey_id', '=', event.data.passkeyId).execute();
        return;
      case 'PasskeyRemoved': {
        await trx.deleteFrom('passkeys_v1').where('passkey_id', '=', event.data.passkeyId).execute();
        const row = await trx.selectFrom('second_factors_v1').select('totp_status').where('account_id', '=', accountId).executeTakeFirst();
        if (row?.totp_status !== 'enrolled' && (await passkeysLeft()) === 0) return set(noCodes);
        return;
      }
    }
  }
}
