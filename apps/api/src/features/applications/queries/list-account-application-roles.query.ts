import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccountApplicationRole } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListAccountApplicationRolesQuery {
  constructor(
    readonly accountId: string,
    readonly applicationId?: string,
  ) {}
}

/** Every live application role (of one application, if named), each with `associated` 1 when the account holds it. */
@QueryHandler(ListAccountApplicationRolesQuery)
export class ListAccountApplicationRolesHandler implements IQueryHandler<ListAccountApplicationRolesQuery, TAccountApplicationRole[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, applicationId }: ListAccountApplicationRolesQuery): Promise<TAccountApplicationRole[]> {
    let roles = this.db
      .selectFrom('application_roles_v1 as r')
      .innerJoin('applications_v1 as a', 'a.id', 'r.application_id')
      .leftJoin('account_application_roles_v1 as h', (join) => join.onRef('h.role_id', '=', 'r.id').on('h.account_id', '=', accountId))
      .select(['r.application_id', 'a.title as application_title', 'r.id', 'r.title', 'r.slug', 'h.account_id as holder']);
    if (applicationId) roles = roles.where('r.application_id', '=', applicationId);
    const rows = await roles.orderBy('a.title_lower').orderBy('r.created_at').orderBy('r.id').execute();
    return rows.map(({ holder, ...row }) => ({ ...row, associated: holder ? 1 : 0 }));
  }
}
