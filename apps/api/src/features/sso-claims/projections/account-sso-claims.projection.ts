import type { AccountEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * account_sso_claims_v1: the single sign-on claim values set for each account (console-accounts.md tab
 * 10, docs/adr/0014), one row per set claim. What the tab shows and what `releasedSsoClaims` gives the
 * OpenID Connect provider. A cleared claim (null) has no row, so the profile fallback applies; a
 * deleted account loses all its rows (claim values are personal data).
 *
 * Upsert and delete only, so applying an event again leaves the same rows.
 */
export class AccountSsoClaimsProjection implements Projection {
  readonly name = 'account_sso_claims_v1';
  readonly eventTypes = ['AccountClaimsChanged', 'AccountDeleted'] as const;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('account_sso_claims_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('claim', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_sso_claims_v1_pk', ['account_id', 'claim'])
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('account_sso_claims_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as AccountEvent;
    switch (event.type) {
      case 'AccountClaimsChanged': {
        const { accountId, claims } = event.data;
        for (const [claim, value] of Object.entries(claims)) {
          if (value === null) {
            await trx.deleteFrom('account_sso_claims_v1').where('account_id', '=', accountId).where('claim', '=', claim).execute();
          } else {
            await trx
              .insertInto('account_sso_claims_v1')
              .values({ account_id: accountId, claim, value })
              .onConflict((oc) => oc.columns(['account_id', 'claim']).doUpdateSet({ value }))
              .execute();
          }
        }
        break;
      }
      case 'AccountDeleted':
        await trx.deleteFrom('account_sso_claims_v1').where('account_id', '=', event.data.accountId).execute();
        break;
      default:
        break;
    }
  }
}
