import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TRoleAccount } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../core/tokens';
import type { ReadDatabase } from '../../read-db/read-database';
import { organizationOfRole } from '../commands/organization-access';

export class ListRoleAccountsQuery {
  constructor(readonly roleId: string) {}
}

/** 'Associated accounts for a role': the accounts holding it, by name; 404 role.not_found. */
@QueryHandler(ListRoleAccountsQuery)
export class ListRoleAccountsHandler implements IQueryHandler<ListRoleAccountsQuery, TRoleAccount[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ roleId }: ListRoleAccountsQuery): Promise<TRoleAccount[]> {
    await organizationOfRole(this.db, roleId);
    const rows = await this.db
      .selectFrom('account_roles_v1 as r')
      .innerJoin('accounts_v2 as a', 'a.id', 'r.account_id')
      .select(['a.id', 'a.first_name', 'a.last_name', 'a.username'])
      .where('r.role_id', '=', roleId)
      .orderBy('a.last_name')
      .orderBy('a.first_name')
      .orderBy('a.id')
      .execute();
    return rows.map((row) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name, username_readable: row.username }));
  }
}
