import { ORGANIZATION_ACCESS_EVENT_TYPES, type AccountEvent, type OrganizationEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

const ACCOUNT_EVENT_TYPES = ['RoleGrantedToAccount', 'RoleRevokedFromAccount', 'AccountLeftOrganization', 'AccountDeleted'] as const;

/**
 * An organization's permissions and roles, which permission each role holds, and which roles each
 * account holds (organization_permissions_v1, organization_roles_v1, organization_role_permissions_v1,
 * account_roles_v1), owned together so that no link outlives what it links: a deleted permission
 * leaves every role, a deleted role leaves every account, a deleted organization takes all of its
 * rows along, and an account that leaves an organization (or is deleted) loses its roles there. A grant
 * of a role that is already gone (a race between two consoles) is not shown. The counts (`num_uses`,
 * `num_associations`) are grouped queries over the link tables' indexes, so no counter can drift.
 *
 * Every change is state-based (insert-if-absent, update, delete), so applying an event again leaves
 * the same rows.
 */
export class OrganizationAccessProjection implements Projection {
  readonly name = 'organization_access_v1';
  readonly eventTypes = [...ORGANIZATION_ACCESS_EVENT_TYPES, 'OrganizationDeleted', ...ACCOUNT_EVENT_TYPES];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    for (const table of ['organization_permissions_v1', 'organization_roles_v1'] as const) {
      await db.schema
        .createTable(table)
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('is_protected', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    }
    await db.schema
      .createTable('organization_role_permissions_v1')
      .ifNotExists()
      .addColumn('role_id', 'text', (c) => c.notNull())
      .addColumn('permission_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('organization_role_permissions_v1_pk', ['role_id', 'permission_id'])
      .execute();
    await db.schema
      .createTable('account_roles_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('role_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_roles_v1_pk', ['account_id', 'role_id'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // an organization's lists, oldest first
    await db.schema.createIndex('organization_permissions_v1_organization').ifNotExists().on('organization_permissions_v1').columns(['organization_id', 'created_at']).execute();
    await db.schema.createIndex('organization_roles_v1_organization').ifNotExists().on('organization_roles_v1').columns(['organization_id', 'created_at']).execute();
    // num_uses, and what a permission's deletion removes
    await db.schema.createIndex('organization_role_permissions_v1_permission').ifNotExists().on('organization_role_permissions_v1').column('permission_id').execute();
    await db.schema.createIndex('organization_role_permissions_v1_organization').ifNotExists().on('organization_role_permissions_v1').column('organization_id').execute();
    // num_associations and a role's accounts; the members' roles of an organization
    await db.schema.createIndex('account_roles_v1_role').ifNotExists().on('account_roles_v1').column('role_id').execute();
    await db.schema.createIndex('account_roles_v1_organization').ifNotExists().on('account_roles_v1').columns(['organization_id', 'account_id']).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    for (const table of ['organization_permissions_v1', 'organization_roles_v1', 'organization_role_permissions_v1', 'account_roles_v1'] as const) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as OrganizationEvent | AccountEvent;
    switch (event.type) {
      case 'PermissionCreated': {
        const d = event.data;
        await trx
          .insertInto('organization_permissions_v1')
          .values({ id: d.permissionId, organization_id: d.organizationId, title: d.title, slug: d.slug, description: d.description, is_protected: d.isProtected ? 1 : 0, created_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'PermissionTitleChanged':
        await trx.updateTable('organization_permissions_v1').set({ title: event.data.title }).where('id', '=', event.data.permissionId).execute();
        break;
      case 'PermissionSlugChanged':
        await trx.updateTable('organization_permissions_v1').set({ slug: event.data.slug }).where('id', '=', event.data.permissionId).execute();
        break;
      case 'PermissionDeleted':
        await trx.deleteFrom('organization_permissions_v1').where('id', '=', event.data.permissionId).execute();
        await trx.deleteFrom('organization_role_permissions_v1').where('permission_id', '=', event.data.permissionId).execute();
        break;
      case 'RoleCreated': {
        const d = event.data;
        await trx
          .insertInto('organization_roles_v1')
          .values({ id: d.roleId, organization_id: d.organizationId, title: d.title, slug: d.slug, description: d.description, is_protected: d.isProtected ? 1 : 0, created_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        if (d.permissionIds.length) {
          await trx
            .insertInto('organization_role_permissions_v1')
            .values(d.permissionIds.map((permissionId) => ({ role_id: d.roleId, permission_id: permissionId, organization_id: d.organizationId })))
            .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing())
            .execute();
        }
        break;
      }
      case 'RoleTitleChanged':
        await trx.updateTable('organization_roles_v1').set({ title: event.data.title }).where('id', '=', event.data.roleId).execute();
        break;
      case 'RoleSlugChanged':
        await trx.updateTable('organization_roles_v1').set({ slug: event.data.slug }).where('id', '=', event.data.roleId).execute();
        break;
      case 'RoleDeleted':
        await trx.deleteFrom('organization_roles_v1').where('id', '=', event.data.roleId).execute();
        await trx.deleteFrom('organization_role_permissions_v1').where('role_id', '=', event.data.roleId).execute();
        await trx.deleteFrom('account_roles_v1').where('role_id', '=', event.data.roleId).execute();
        break;
      case 'PermissionGrantedToRole':
        await trx
          .insertInto('organization_role_permissions_v1')
          .values({ role_id: event.data.roleId, permission_id: event.data.permissionId, organization_id: event.data.organizationId })
          .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing())
          .execute();
        break;
      case 'PermissionRevokedFromRole':
        await trx.deleteFrom('organization_role_permissions_v1').where('role_id', '=', event.data.roleId).where('permission_id', '=', event.data.permissionId).execute();
        break;
      case 'OrganizationDeleted': {
        const organizationId = event.data.organizationId;
        for (const table of ['organization_permissions_v1', 'organization_roles_v1', 'organization_role_permissions_v1', 'account_roles_v1'] as const) {
          await trx.deleteFrom(table).where('organization_id', '=', organizationId).execute();
        }
        break;
      }
      case 'RoleGrantedToAccount': {
        const { accountId, organizationId, roleId, at } = event.data;
        // only a role that still exists: a grant racing the role's deletion is not shown
        const role = await trx.selectFrom('organization_roles_v1').select('id').where('id', '=', roleId).executeTakeFirst();
        if (!role) break;
        await trx
          .insertInto('account_roles_v1')
          .values({ account_id: accountId, organization_id: organizationId, role_id: roleId, created_at: at })
          .onConflict((oc) => oc.columns(['account_id', 'role_id']).doNothing())
          .execute();
        break;
      }
      case 'RoleRevokedFromAccount':
        await trx.deleteFrom('account_roles_v1').where('account_id', '=', event.data.accountId).where('role_id', '=', event.data.roleId).execute();
        break;
      case 'AccountLeftOrganization':
        await trx.deleteFrom('account_roles_v1').where('account_id', '=', event.data.accountId).where('organization_id', '=', event.data.organizationId).execute();
        break;
      case 'AccountDeleted':
        await trx.deleteFrom('account_roles_v1').where('account_id', '=', event.data.accountId).execute();
        break;
      default:
        break;
    }
  }
}
