import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { organizationNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { TOrganizationTimeZone } from '../commands/change-organization-time-zone.handler';

export class GetOrganizationTimeZoneQuery {
  constructor(readonly organizationId: string) {}
}

/** The zone the organization names itself (null when none: its members' days follow its parent's, or UTC); 404 organization.not_found. */
@QueryHandler(GetOrganizationTimeZoneQuery)
export class GetOrganizationTimeZoneHandler implements IQueryHandler<GetOrganizationTimeZoneQuery, TOrganizationTimeZone> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId }: GetOrganizationTimeZoneQuery): Promise<TOrganizationTimeZone> {
    const row = await this.db
      .selectFrom('organizations_v1 as organization')
      .leftJoin('organization_time_zones_v1 as zone', 'zone.organization_id', 'organization.id')
      .select('zone.time_zone')
      .where('organization.id', '=', organizationId)
      .executeTakeFirst();
    if (!row) throw organizationNotFound();
    return { time_zone: row.time_zone ?? null };
  }
}
