import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TMemberRoleFlag } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { heldRoleIds, loadRoles } from './access-rows';
import { assertOrganizationExists } from './organization-rows';

export class ListMemberRolesQuery {
  constructor(
    readonly organizationId: string,
    readonly accountId: string,
  ) {}
}

/**
 * 'Roles of a member' (the Manage roles dialog): every role of the organization with `associated` 1
 * for those the account holds. 404 organization.not_found, account.not_found, or membership.not_found
 * when the account does not belong to the organization.
 */
@QueryHandler(ListMemberRolesQuery)
export class ListMemberRolesHandler implements IQueryHandler<ListMemberRolesQuery, TMemberRoleFlag[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId, accountId }: ListMemberRolesQuery): Promise<TMemberRoleFlag[]> {
    await assertOrganizationExists(this.db, organizationId);
    const [account, membership] = await Promise.all([
      this.db.selectFrom('accounts_v2').select('id').where('id', '=', accountId).executeTakeFirst(),
      this.db.selectFrom('organization_members_v1').select('account_id').where('organization_id', '=', organizationId).where('account_id', '=', accountId).executeTakeFirst(),
    ]);
    if (!account) throw new DomainError('account.not_found', 'Account not found');
    if (!membership) throw new DomainError('membership.not_found', 'This account does not belong to that organization');
    const [roles, held] = await Promise.all([loadRoles(this.db, { organizationId }), heldRoleIds(this.db, accountId, [organizationId])]);
    return roles.map((role) => ({ ...role, associated: held.has(role.id) ? 1 : 0 }));
  }
}
