import type { TApplication, TApplicationClientType, TApplicationGrantType, TApplicationPermission, TApplicationRole, TApplicationScope } from '@rollcall/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { ApplicationTable } from '../applications.tables';

/** the columns every answer about an application reads: never the secret's hash */
export const APPLICATION_COLUMNS = [
  'id',
  'title',
  'url',
  'description',
  'scopes',
  'client_type',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'require_pkce',
  'secret_issued_at',
  'created_at',
  'updated_at',
] as const;

export type ApplicationRow = Pick<Selectable<ApplicationTable>, (typeof APPLICATION_COLUMNS)[number]>;

/** An application as the API answers it: `unique_id` and `client_id` are its id (docs/adr/0014). */
export function toApplication(row: ApplicationRow): TApplication {
  const clientType = row.client_type as TApplicationClientType;
  return {
    id: row.id,
    title: row.title,
    url: row.url,
    description: row.description,
    unique_id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    scopes: JSON.parse(row.scopes) as TApplicationScope[],
    client: {
      client_id: row.id,
      client_type: clientType,
      token_endpoint_auth_methods: clientType === 'public' ? ['none'] : ['client_secret_basic', 'client_secret_post'],
      redirect_uris: JSON.parse(row.redirect_uris) as string[],
      post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
      grant_types: JSON.parse(row.grant_types) as TApplicationGrantType[],
      require_pkce: Boolean(row.require_pkce),
      secret_issued_at: clientType === 'public' ? null : row.secret_issued_at,
    },
  };
}

/** counts per application over one indexed column, for a page of the list */
export async function countPerApplication(db: Kysely<ReadDatabase>, table: 'application_permissions_v1' | 'application_roles_v1', applicationIds: string[]): Promise<Map<string, number>> {
  if (!applicationIds.length) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['application_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('application_id', 'in', applicationIds)
    .groupBy('application_id')
    .execute();
  return new Map(rows.map((row) => [row.application_id, Number(row.count)]));
}

/** An application's permissions, oldest first (the order of the details page's rows). */
export async function applicationPermissions(db: Kysely<ReadDatabase>, applicationId: string): Promise<TApplicationPermission[]> {
  return db.selectFrom('application_permissions_v1').select(['id', 'slug', 'description', 'created_at']).where('application_id', '=', applicationId).orderBy('created_at').orderBy('id').execute();
}

/** An application's roles, oldest first, each with its switched-on permissions and relation ids and its holder count. */
export async function applicationRoles(db: Kysely<ReadDatabase>, applicationId: string, roleId?: string): Promise<TApplicationRole[]> {
  let roles = db.selectFrom('application_roles_v1').select(['id', 'title', 'slug', 'description', 'created_at']).where('application_id', '=', applicationId);
  if (roleId) roles = roles.where('id', '=', roleId);
  const [rows, links, holders] = await Promise.all([
    roles.orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('application_role_permissions_v1').select(['id', 'role_id', 'permission_id']).where('application_id', '=', applicationId).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('account_application_roles_v1')
      .select(['role_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('application_id', '=', applicationId)
      .groupBy('role_id')
      .execute(),
  ]);
  const counts = new Map(holders.map((row) => [row.role_id, Number(row.count)]));
  return rows.map((row) => ({
    ...row,
    permissions: links.filter((link) => link.role_id === row.id).map((link) => ({ id: link.permission_id, relation_id: link.id })),
    num_associations: counts.get(row.id) ?? 0,
  }));
}

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
export const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
