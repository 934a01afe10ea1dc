import { ORGANIZATION_OWN_EVENT_TYPES, type AccountEvent, type OrganizationEvent, type OrganizationTreeEvent } from '@rollcall/domain';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import { insertRowsIgnoringConflicts } from '../../../platform/read-db/bulk-insert';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { OrganizationMemberTable, OrganizationTable } from '../organizations.tables';

const MEMBERSHIP_EVENT_TYPES = ['AccountCreated', 'AccountJoinedOrganization', 'AccountLeftOrganization', 'AccountDeleted'] as const;

/**
 * organizations_v1 (one row per live organization with its parent) and organization_members_v1 (one
 * row per membership of a live organization), owned together so a membership never outlives its
 * organization's row: a join of an organization that is already gone (a race the ADR accepts) is not
 * shown, and a deleted organization takes its memberships along. Counts (children, members) are
 * computed per page by grouped queries over indexed columns, so no counter can drift.
 *
 * Every change is state-based (insert-if-absent, set parent, delete), so applying an event again leaves
 * the same rows. Creations and joins in a batch become multi-row inserts; any other event first writes
 * what is pending, so every row sees its events in order.
 */
export class OrganizationsProjection implements Projection {
  readonly name = 'organizations_v1';
  readonly eventTypes = [...ORGANIZATION_OWN_EVENT_TYPES, 'OrganizationPlaced', ...MEMBERSHIP_EVENT_TYPES];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('organizations_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_lower', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('is_protected', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('organization_members_v1')
      .ifNotExists()
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('organization_members_v1_pk', ['organization_id', 'account_id'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // sub-organizations and the children counts
    await db.schema.createIndex('organizations_v1_parent').ifNotExists().on('organizations_v1').columns(['parent_id', 'created_at']).execute();
    // the list's two sorts
    await db.schema.createIndex('organizations_v1_title_lower').ifNotExists().on('organizations_v1').columns(['title_lower', 'id']).execute();
    await db.schema.createIndex('organizations_v1_created_at').ifNotExists().on('organizations_v1').columns(['created_at', 'id']).execute();
    // an account's organizations, and the memberships an account's deletion removes
    await db.schema.createIndex('organization_members_v1_account').ifNotExists().on('organization_members_v1').columns(['account_id', 'created_at']).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('organizations_v1').ifExists().execute();
    await db.schema.dropTable('organization_members_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    await this.applyBatch(trx, [stored]);
  }

  async applyBatch(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void> {
    const organizations = new Map<string, Insertable<OrganizationTable>>();
    const members = new Map<string, Insertable<OrganizationMemberTable>>();
    const flush = async () => {
      if (organizations.size) {
        await insertRowsIgnoringConflicts(trx, 'organizations_v1', 'id', [...organizations.values()]);
        organizations.clear();
      }
      if (members.size) {
        await insertMemberships(trx, [...members.values()]);
        members.clear();
      }
    };
    const join = (organizationId: string, accountId: string, at: string) => members.set(`${organizationId}|${accountId}`, { organization_id: organizationId, account_id: accountId, created_at: at });

    for (const stored of events) {
      const event = { type: stored.type, data: stored.data } as OrganizationEvent | OrganizationTreeEvent | AccountEvent;
      switch (event.type) {
        case 'OrganizationCreated': {
          const d = event.data;
          organizations.set(d.organizationId, {
            id: d.organizationId,
            title: d.title,
            title_lower: d.title.toLowerCase(),
            description: d.description,
            parent_id: null,
            is_protected: d.isProtected ? 1 : 0,
            created_at: d.createdAt,
            updated_at: d.createdAt,
          });
          break;
        }
        case 'OrganizationPlaced': {
          const { organizationId, parentId, at } = event.data;
          const pending = organizations.get(organizationId);
          if (pending) {
            pending.parent_id = parentId;
            if (at > (pending.updated_at as string)) pending.updated_at = at;
            break;
          }
          await flush();
          await trx.updateTable('organizations_v1').set({ parent_id: parentId }).where('id', '=', organizationId).execute();
          // a move is a change of the organization ('Last update'); the creation's own placement is not
          await trx.updateTable('organizations_v1').set({ updated_at: at }).where('id', '=', organizationId).where('updated_at', '<', at).execute();
          break;
        }
        case 'OrganizationDetailsChanged': {
          await flush();
          const d = event.data;
          await trx.updateTable('organizations_v1').set({ title: d.title, title_lower: d.title.toLowerCase(), description: d.description, updated_at: d.changedAt }).where('id', '=', d.organizationId).execute();
          break;
        }
        case 'OrganizationDeleted': {
          await flush();
          await trx.deleteFrom('organizations_v1').where('id', '=', event.data.organizationId).execute();
          await trx.deleteFrom('organization_members_v1').where('organization_id', '=', event.data.organizationId).execute();
          break;
        }
        case 'AccountCreated':
          if (event.data.organizationId) join(event.data.organizationId, event.data.accountId, event.data.createdAt);
          break;
        case 'AccountJoinedOrganization':
          join(event.data.organizationId, event.data.accountId, event.data.at);
          break;
        case 'AccountLeftOrganization':
          await flush();
          await trx.deleteFrom('organization_members_v1').where('organization_id', '=', event.data.organizationId).where('account_id', '=', event.data.accountId).execute();
          break;
        case 'AccountDeleted':
          await flush();
          await trx.deleteFrom('organization_members_v1').where('account_id', '=', event.data.accountId).execute();
          break;
        default:
          break;
      }
    }
    await flush();
  }
}

/** Memberships of organizations that have a row; the others (joined as their organization went) are dropped. */
async function insertMemberships(trx: Transaction<ReadDatabase>, rows: Insertable<OrganizationMemberTable>[]): Promise<void> {
  const organizationIds = [...new Set(rows.map((row) => row.organization_id))];
  const live = new Set<string>();
  for (let start = 0; start < organizationIds.length; start += 500) {
    const found = await trx.selectFrom('organizations_v1').select('id').where('id', 'in', organizationIds.slice(start, start + 500)).execute();
    for (const row of found) live.add(row.id);
  }
  const kept = rows.filter((row) => live.has(row.organization_id));
  for (let start = 0; start < kept.length; start += 500) {
    await trx
      .insertInto('organization_members_v1')
      .values(kept.slice(start, start + 500))
      .onConflict((oc) => oc.columns(['organization_id', 'account_id']).doNothing())
      .execute();
  }
}
