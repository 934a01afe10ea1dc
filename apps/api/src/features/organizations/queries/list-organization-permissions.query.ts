import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TPermission } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { loadPermissions } from './access-rows';
import { assertOrganizationExists } from './organization-rows';

export class ListOrganizationPermissionsQuery {
  constructor(readonly organizationId: string) {}
}

/** The Permissions tab (and the role switches): every permission of the organization, oldest first; 404 for an unknown organization. */
@QueryHandler(ListOrganizationPermissionsQuery)
export class ListOrganizationPermissionsHandler implements IQueryHandler<ListOrganizationPermissionsQuery, TPermission[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId }: ListOrganizationPermissionsQuery): Promise<TPermission[]> {
    await assertOrganizationExists(this.db, organizationId);
    return loadPermissions(this.db, { organizationId });
  }
}
