import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TRole } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { loadRoles } from './access-rows';
import { assertOrganizationExists } from './organization-rows';

export class ListOrganizationRolesQuery {
  constructor(readonly organizationId: string) {}
}

/** The Roles tab: every role of the organization with its permissions and holders' count, oldest first; 404 for an unknown organization. */
@QueryHandler(ListOrganizationRolesQuery)
export class ListOrganizationRolesHandler implements IQueryHandler<ListOrganizationRolesQuery, TRole[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId }: ListOrganizationRolesQuery): Promise<TRole[]> {
    await assertOrganizationExists(this.db, organizationId);
    return loadRoles(this.db, { organizationId });
  }
}
