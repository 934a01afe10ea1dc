import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TOrganization } from '@rollcall/contracts';
import { organizationNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ORGANIZATION_COLUMNS, organizationsWithParent, toOrganizations } from './organization-rows';

export class GetOrganizationQuery {
  constructor(readonly organizationId: string) {}
}

/** One organization with its parent's title and its counts; 404 organization.not_found. */
@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery, TOrganization> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId }: GetOrganizationQuery): Promise<TOrganization> {
    const row = await organizationsWithParent(this.db).select(ORGANIZATION_COLUMNS).where('o.id', '=', organizationId).executeTakeFirst();
    if (!row) throw organizationNotFound();
    const [organization] = await toOrganizations(this.db, [row]);
    return organization;
  }
}
