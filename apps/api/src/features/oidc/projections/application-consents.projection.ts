import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

type ConsentEvent =
  | { type: 'ApplicationConsentGiven' | 'ApplicationConsentRevoked'; data: { accountId: string; applicationId: string; scopes: string[]; at: string } }
  | { type: 'AccountDeleted'; data: { accountId: string } }
  | { type: 'ApplicationDeleted'; data: { applicationId: string } };

/**
 * application_consents_v1: the scopes each account consented to per application (docs/adr/0014,
 * 'Consent'). The provider's loadExistingGrant reads it, so a remembered consent skips the page and a
 * revoked one asks again. A deleted account or application takes its rows along. State-based: applying
 * an event again leaves the same rows.
 */
export class ApplicationConsentsProjection implements Projection {
  readonly name = 'application_consents_v1';
  readonly eventTypes = ['ApplicationConsentGiven', 'ApplicationConsentRevoked', 'AccountDeleted', 'ApplicationDeleted'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('application_consents_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('given_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('application_consents_v1_pk', ['account_id', 'application_id'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // what deleting an application removes
    await db.schema.createIndex('application_consents_v1_application').ifNotExists().on('application_consents_v1').column('application_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('application_consents_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as ConsentEvent;
    switch (event.type) {
      case 'ApplicationConsentGiven': {
        const { accountId, applicationId, scopes, at } = event.data;
        const row = await trx.selectFrom('application_consents_v1').select('scopes').where('account_id', '=', accountId).where('application_id', '=', applicationId).executeTakeFirst();
        if (!row) {
          await trx.insertInto('application_consents_v1').values({ account_id: accountId, application_id: applicationId, scopes: JSON.stringify(scopes), given_at: at, updated_at: at }).execute();
          break;
        }
        const merged = [...new Set([...(JSON.parse(row.scopes) as string[]), ...scopes])];
        await trx.updateTable('application_consents_v1').set({ scopes: JSON.stringify(merged), updated_at: at }).where('account_id', '=', accountId).where('application_id', '=', applicationId).execute();
        break;
      }
      case 'ApplicationConsentRevoked':
        await trx.deleteFrom('application_consents_v1').where('account_id', '=', event.data.accountId).where('application_id', '=', event.data.applicationId).execute();
        break;
      case 'AccountDeleted':
        await trx.deleteFrom('application_consents_v1').where('account_id', '=', event.data.accountId).execute();
        break;
      case 'ApplicationDeleted':
        await trx.deleteFrom('application_consents_v1').where('application_id', '=', event.data.applicationId).execute();
        break;
      default:
        break;
    }
  }
}
