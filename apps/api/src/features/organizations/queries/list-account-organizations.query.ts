import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TAccountOrganization, type TAccountOrganizationRole, type TAccountOrganizationsQuery, type TPage } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Scope } from '../../../platform/access/grants';
import { organizationsWithin } from '../../../platform/access/scope-filters';
import { heldRoleIds } from './access-rows';

export class ListAccountOrganizationsQuery {
  constructor(
    readonly accountId: string,
    readonly input: TAccountOrganizationsQuery,
    /** where the caller may read organizations: a shared member's other organizations stay out of sight (docs/adr/0011) */
    readonly scope: Scope = 'everywhere',
  ) {}
}

const SORT_COLUMNS = { created_at: 'm.created_at', org_title: 'o.title_lower' } as const;

/**
 * The account's 'Organization association' tab: its organizations, newest membership first, each with
 * every role of that organization and whether the account holds it (the expanded row's switches). The
 * roles of the whole page come from two queries.
 */
@QueryHandler(ListAccountOrganizationsQuery)
export class ListAccountOrganizationsHandler implements IQueryHandler<ListAccountOrganizationsQuery, TPage<TAccountOrganization>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, input, scope }: ListAccountOrganizationsQuery): Promise<TPage<TAccountOrganization>> {
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'Account not found');
    const within = organizationsWithin(scope, 'm.organization_id');
    const memberships = this.db
      .selectFrom('organization_members_v1 as m')
      .innerJoin('organizations_v1 as o', 'o.id', 'm.organization_id')
      .where('m.account_id', '=', accountId)
      .$if(within !== null, (query) => query.where(within!));
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      memberships
        .select(['o.id', 'o.title', 'm.created_at'])
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('o.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      memberships.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const organizationIds = rows.map((row) => row.id);
    const [roles, held] = await Promise.all([
      organizationIds.length
        ? this.db.selectFrom('organization_roles_v1').select(['id', 'organization_id', 'slug', 'title']).where('organization_id', 'in', organizationIds).orderBy('created_at').orderBy('id').execute()
        : [],
      heldRoleIds(this.db, accountId, organizationIds),
    ]);
    const rolesOf = new Map<string, TAccountOrganizationRole[]>();
    for (const role of roles) {
      const list = rolesOf.get(role.organization_id) ?? [];
      list.push({ id: role.id, slug: role.slug, title: role.title, associated: held.has(role.id) ? 1 : 0 });
      rolesOf.set(role.organization_id, list);
    }
    return toPage(
      rows.map((row) => ({ id: row.id, org_title: row.title, created_at: row.created_at, roles: rolesOf.get(row.id) ?? [] })),
      Number(count.total),
      input.page,
      input.limit,
    );
  }
}
