import { APPLICATION_EVENT_TYPES, type AccountEvent, type ApplicationEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

const ACCOUNT_EVENT_TYPES = ['ApplicationRoleGrantedToAccount', 'ApplicationRoleRevokedFromAccount', 'AccountDeleted'] as const;

/**
 * applications_v1 (one row per live application, with its client settings and secret hash),
 * application_permissions_v1, application_roles_v1, application_role_permissions_v1 (one row per live
 * link, keyed by its relation id) and account_application_roles_v1 (docs/adr/0014), owned together so
 * no permission, role, link or grant outlives its application or role. A grant is kept only while
 * its role lives: deleting a role or an application removes the grants here, and ids are never
 * reused, so a dangling grant in an account's stream never shows.
 *
 * Every change is state-based (insert-if-absent, update, delete), so applying an event again leaves
 * the same rows.
 */
export class ApplicationsProjection implements Projection {
  readonly name = 'applications_v1';
  readonly eventTypes = [...APPLICATION_EVENT_TYPES, ...ACCOUNT_EVENT_TYPES];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('applications_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_lower', 'text', (c) => c.notNull())
      .addColumn('url', 'text')
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('client_type', 'text', (c) => c.notNull())
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
      .addColumn('grant_types', 'text', (c) => c.notNull())
      .addColumn('require_pkce', 'integer', (c) => c.notNull())
      .addColumn('secret_hash', 'text')
      .addColumn('secret_issued_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('application_permissions_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('application_roles_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('application_role_permissions_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('role_id', 'text', (c) => c.notNull())
      .addColumn('permission_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('account_application_roles_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('role_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_application_roles_v1_pk', ['account_id', 'role_id'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // the list's two sorts and its search
    await db.schema.createIndex('applications_v1_title_lower').ifNotExists().on('applications_v1').columns(['title_lower', 'id']).execute();
    await db.schema.createIndex('applications_v1_created_at').ifNotExists().on('applications_v1').columns(['created_at', 'id']).execute();
    // an application's details, and what its deletion removes
    await db.schema.createIndex('application_permissions_v1_application').ifNotExists().on('application_permissions_v1').columns(['application_id', 'created_at']).execute();
    await db.schema.createIndex('application_roles_v1_application').ifNotExists().on('application_roles_v1').columns(['application_id', 'created_at']).execute();
    await db.schema.createIndex('application_role_permissions_v1_role').ifNotExists().on('application_role_permissions_v1').columns(['role_id', 'permission_id']).execute();
    await db.schema.createIndex('application_role_permissions_v1_permission').ifNotExists().on('application_role_permissions_v1').column('permission_id').execute();
    await db.schema.createIndex('application_role_permissions_v1_application').ifNotExists().on('application_role_permissions_v1').column('application_id').execute();
    // a role's holders (num_associations), and what deleting a role or an application removes
    await db.schema.createIndex('account_application_roles_v1_role').ifNotExists().on('account_application_roles_v1').column('role_id').execute();
    await db.schema.createIndex('account_application_roles_v1_application').ifNotExists().on('account_application_roles_v1').column('application_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    for (const table of ['applications_v1', 'application_permissions_v1', 'application_roles_v1', 'application_role_permissions_v1', 'account_application_roles_v1'] as const) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as ApplicationEvent | AccountEvent;
    switch (event.type) {
      case 'ApplicationCreated': {
        const d = event.data;
        await trx
          .insertInto('applications_v1')
          .values({
            id: d.applicationId,
            title: d.title,
            title_lower: d.title.toLowerCase(),
            url: d.url,
            description: d.description,
            scopes: JSON.stringify(d.scopes),
            ...clientColumns(d.client),
            secret_hash: null,
            secret_issued_at: null,
            created_at: d.createdAt,
            updated_at: d.createdAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'ApplicationBasicInfoChanged': {
        const d = event.data;
        await trx
          .updateTable('applications_v1')
          .set({ title: d.title, title_lower: d.title.toLowerCase(), url: d.url, description: d.description, updated_at: d.changedAt })
          .where('id', '=', d.applicationId)
          .execute();
        break;
      }
      case 'ApplicationScopesChanged':
        await trx.updateTable('applications_v1').set({ scopes: JSON.stringify(event.data.scopes), updated_at: event.data.changedAt }).where('id', '=', event.data.applicationId).execute();
        break;
      case 'ApplicationClientConfigured': {
        const { applicationId, changedAt, ...client } = event.data;
        // turning public drops the secret (the decider's state does the same)
        const secret = client.clientType === 'public' ? { secret_hash: null, secret_issued_at: null } : {};
        await trx
          .updateTable('applications_v1')
          .set({ ...clientColumns(client), ...secret, updated_at: changedAt })
          .where('id', '=', applicationId)
          .execute();
        break;
      }
      case 'ApplicationClientSecretIssued':
        await trx.updateTable('applications_v1').set({ secret_hash: event.data.secretHash, secret_issued_at: event.data.issuedAt }).where('id', '=', event.data.applicationId).execute();
        break;
      case 'ApplicationDeleted': {
        const id = event.data.applicationId;
        await trx.deleteFrom('applications_v1').where('id', '=', id).execute();
        await trx.deleteFrom('application_permissions_v1').where('application_id', '=', id).execute();
        await trx.deleteFrom('application_roles_v1').where('application_id', '=', id).execute();
        await trx.deleteFrom('application_role_permissions_v1').where('application_id', '=', id).execute();
        await trx.deleteFrom('account_application_roles_v1').where('application_id', '=', id).execute();
        break;
      }
      case 'ApplicationPermissionAdded': {
        const d = event.data;
        await trx
          .insertInto('application_permissions_v1')
          .values({ id: d.permissionId, application_id: d.applicationId, slug: d.slug, description: d.description, created_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'ApplicationPermissionChanged':
        await trx.updateTable('application_permissions_v1').set({ slug: event.data.slug, description: event.data.description }).where('id', '=', event.data.permissionId).execute();
        break;
      case 'ApplicationPermissionRemoved':
        await trx.deleteFrom('application_permissions_v1').where('id', '=', event.data.permissionId).execute();
        await trx.deleteFrom('application_role_permissions_v1').where('permission_id', '=', event.data.permissionId).execute();
        break;
      case 'ApplicationRoleCreated': {
        const d = event.data;
        await trx
          .insertInto('application_roles_v1')
          .values({ id: d.roleId, application_id: d.applicationId, title: d.title, slug: d.slug, description: d.description, created_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        if (d.permissions.length) {
          await trx
            .insertInto('application_role_permissions_v1')
            .values(d.permissions.map((link) => ({ id: link.linkId, application_id: d.applicationId, role_id: d.roleId, permission_id: link.permissionId, created_at: d.createdAt })))
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        }
        break;
      }
      case 'ApplicationRoleTitleChanged':
        await trx.updateTable('application_roles_v1').set({ title: event.data.title }).where('id', '=', event.data.roleId).execute();
        break;
      case 'ApplicationRoleDeleted':
        await trx.deleteFrom('application_roles_v1').where('id', '=', event.data.roleId).execute();
        await trx.deleteFrom('application_role_permissions_v1').where('role_id', '=', event.data.roleId).execute();
        await trx.deleteFrom('account_application_roles_v1').where('role_id', '=', event.data.roleId).execute();
        break;
      case 'PermissionAddedToApplicationRole': {
        const d = event.data;
        await trx
          .insertInto('application_role_permissions_v1')
          .values({ id: d.linkId, application_id: d.applicationId, role_id: d.roleId, permission_id: d.permissionId, created_at: d.at })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'PermissionRemovedFromApplicationRole':
        await trx.deleteFrom('application_role_permissions_v1').where('id', '=', event.data.linkId).execute();
        break;
      case 'ApplicationRoleGrantedToAccount': {
        const d = event.data;
        // a grant of a role deleted meanwhile stays invisible: only live roles are held here
        const role = await trx.selectFrom('application_roles_v1').select('id').where('id', '=', d.roleId).where('application_id', '=', d.applicationId).executeTakeFirst();
        if (!role) break;
        await trx
          .insertInto('account_application_roles_v1')
          .values({ account_id: d.accountId, application_id: d.applicationId, role_id: d.roleId, created_at: d.at })
          .onConflict((oc) => oc.columns(['account_id', 'role_id']).doNothing())
          .execute();
        break;
      }
      case 'ApplicationRoleRevokedFromAccount':
        await trx.deleteFrom('account_application_roles_v1').where('account_id', '=', event.data.accountId).where('role_id', '=', event.data.roleId).execute();
        break;
      case 'AccountDeleted':
        await trx.deleteFrom('account_application_roles_v1').where('account_id', '=', event.data.accountId).execute();
        break;
      default:
        break;
    }
  }
}

function clientColumns(client: { clientType: string; redirectUris: string[]; postLogoutRedirectUris: string[]; grantTypes: string[]; requirePkce: boolean }) {
  return {
    client_type: client.clientType,
    redirect_uris: JSON.stringify(client.redirectUris),
    post_logout_redirect_uris: JSON.stringify(client.postLogoutRedirectUris),
    grant_types: JSON.stringify(client.grantTypes),
    require_pkce: client.requirePkce ? 1 : 0,
  };
}
