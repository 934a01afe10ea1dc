import { TEAM_EVENT_TYPES, type AccountEvent, type TeamEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * teams_v1 (one row per live team) and team_members_v1 (one row per membership of a live team),
 * owned together so a membership never outlives its team's row. A deleted account takes its team
 * memberships along. A team keeps its row when its organization is deleted (docs/adr/0010): the
 * queries then show it without an organization.
 *
 * Every change is state-based (insert-if-absent, update, delete), so applying an event again leaves
 * the same rows.
 */
export class TeamsProjection implements Projection {
  readonly name = 'teams_v1';
  readonly eventTypes = [...TEAM_EVENT_TYPES, 'AccountDeleted'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('teams_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_lower', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('interorg', 'integer', (c) => c.notNull())
      .addColumn('organization_id', 'text')
      .addColumn('is_protected', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('team_members_v1')
      .ifNotExists()
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_members_v1_pk', ['team_id', 'account_id'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // an organization's Teams tab
    await db.schema.createIndex('teams_v1_organization').ifNotExists().on('teams_v1').columns(['organization_id', 'created_at']).execute();
    // the list's two sorts, search and find
    await db.schema.createIndex('teams_v1_title_lower').ifNotExists().on('teams_v1').columns(['title_lower', 'id']).execute();
    await db.schema.createIndex('teams_v1_created_at').ifNotExists().on('teams_v1').columns(['created_at', 'id']).execute();
    // an account's teams, and the memberships an account's deletion removes
    await db.schema.createIndex('team_members_v1_account').ifNotExists().on('team_members_v1').columns(['account_id', 'created_at']).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('teams_v1').ifExists().execute();
    await db.schema.dropTable('team_members_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as TeamEvent | AccountEvent;
    switch (event.type) {
      case 'TeamCreated': {
        const d = event.data;
        await trx
          .insertInto('teams_v1')
          .values({
            id: d.teamId,
            title: d.title,
            title_lower: d.title.toLowerCase(),
            description: d.description,
            interorg: d.interorg ? 1 : 0,
            organization_id: d.organizationId,
            is_protected: d.isProtected ? 1 : 0,
            created_at: d.createdAt,
            updated_at: d.createdAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'TeamTitleChanged': {
        const d = event.data;
        await trx.updateTable('teams_v1').set({ title: d.title, title_lower: d.title.toLowerCase(), updated_at: d.changedAt }).where('id', '=', d.teamId).execute();
        break;
      }
      case 'TeamDeleted':
        await trx.deleteFrom('teams_v1').where('id', '=', event.data.teamId).execute();
        await trx.deleteFrom('team_members_v1').where('team_id', '=', event.data.teamId).execute();
        break;
      case 'AccountAddedToTeam':
        await trx
          .insertInto('team_members_v1')
          .values({ team_id: event.data.teamId, account_id: event.data.accountId, created_at: event.data.at })
          .onConflict((oc) => oc.columns(['team_id', 'account_id']).doNothing())
          .execute();
        break;
      case 'AccountRemovedFromTeam':
        await trx.deleteFrom('team_members_v1').where('team_id', '=', event.data.teamId).where('account_id', '=', event.data.accountId).execute();
        break;
      case 'AccountDeleted':
        await trx.deleteFrom('team_members_v1').where('account_id', '=', event.data.accountId).execute();
        break;
      default:
        break;
    }
  }
}
