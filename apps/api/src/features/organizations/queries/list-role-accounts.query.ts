import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TRoleAccount } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { organizationOfPermission, organizationOfRole } from '../commands/organization-access';

export class ListRoleAccountsQuery {
  constructor(readonly roleId: string) {}
}

export class ListPermissionAccountsQuery {
  constructor(readonly permissionId: string) {}
}

/** The accounts holding any of the roles chosen by `roles`, once each, by name. */
async function accountsHolding(db: Kysely<ReadDatabase>, roles: { roleId: string } | { permissionId: string }): Promise<TRoleAccount[]> {
  const rows = await db
    .selectFrom('accounts_v2 as a')
    .select(['a.id', 'a.first_name', 'a.last_name', 'a.username'])
    .where((eb) =>
      eb.exists(
        'roleId' in roles
          ? eb.selectFrom('account_roles_v1 as r').select('r.role_id').whereRef('r.account_id', '=', 'a.id').where('r.role_id', '=', roles.roleId)
          : eb
              .selectFrom('account_roles_v1 as r')
              .innerJoin('organization_role_permissions_v1 as rp', 'rp.role_id', 'r.role_id')
              .select('r.role_id')
              .whereRef('r.account_id', '=', 'a.id')
              .where('rp.permission_id', '=', roles.permissionId),
      ),
    )
    .orderBy('a.last_name')
    .orderBy('a.first_name')
    .orderBy('a.id')
    .execute();
  return rows.map((row) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name, username_readable: row.username }));
}

/** 'Associated accounts for a role': the accounts holding it, by name; 404 role.not_found. */
@QueryHandler(ListRoleAccountsQuery)
export class ListRoleAccountsHandler implements IQueryHandler<ListRoleAccountsQuery, TRoleAccount[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ roleId }: ListRoleAccountsQuery): Promise<TRoleAccount[]> {
    await organizationOfRole(this.db, roleId);
    return accountsHolding(this.db, { roleId });
  }
}

/** A permission's 'Associated accounts': those holding it through any role that carries it, by name; 404 permission.not_found. */
@QueryHandler(ListPermissionAccountsQuery)
export class ListPermissionAccountsHandler implements IQueryHandler<ListPermissionAccountsQuery, TRoleAccount[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ permissionId }: ListPermissionAccountsQuery): Promise<TRoleAccount[]> {
    await organizationOfPermission(this.db, permissionId);
    return accountsHolding(this.db, { permissionId });
  }
}
