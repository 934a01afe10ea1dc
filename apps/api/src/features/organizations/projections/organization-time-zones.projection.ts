import type { OrganizationEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * The organizations' own time zones, in a table of their own so organizations_v1 (and its rebuild)
 * stays as it is. An organization without a zone has no row. Every change sets or removes the row
 * for the organization, so applying an event again leaves the same rows.
 */
export class OrganizationTimeZonesProjection implements Projection {
  readonly name = 'organization_time_zones_v1';
  readonly eventTypes = ['OrganizationTimeZoneChanged', 'OrganizationDeleted'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('organization_time_zones_v1')
      .ifNotExists()
      .addColumn('organization_id', 'text', (c) => c.primaryKey())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('organization_time_zones_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as OrganizationEvent;
    switch (event.type) {
      case 'OrganizationTimeZoneChanged': {
        const { organizationId, timeZone } = event.data;
        if (timeZone === null) {
          await trx.deleteFrom('organization_time_zones_v1').where('organization_id', '=', organizationId).execute();
          break;
        }
        await trx
          .insertInto('organization_time_zones_v1')
          .values({ organization_id: organizationId, time_zone: timeZone })
          .onConflict((oc) => oc.column('organization_id').doUpdateSet({ time_zone: timeZone }))
          .execute();
        break;
      }
      case 'OrganizationDeleted':
        await trx.deleteFrom('organization_time_zones_v1').where('organization_id', '=', event.data.organizationId).execute();
        break;
      default:
        break;
    }
  }
}
