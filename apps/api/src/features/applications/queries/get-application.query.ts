import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TApplicationDetails } from '@rollcall/contracts';
import { applicationNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { APPLICATION_COLUMNS, applicationPermissions, applicationRoles, toApplication } from './application-rows';

export class GetApplicationQuery {
  constructor(readonly applicationId: string) {}
}

/** `GET application/{id}`: `app`, `roles` and `permissions`; 404 application.not_found. */
@QueryHandler(GetApplicationQuery)
export class GetApplicationHandler implements IQueryHandler<GetApplicationQuery, TApplicationDetails> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ applicationId }: GetApplicationQuery): Promise<TApplicationDetails> {
    const row = await this.db.selectFrom('applications_v1').select(APPLICATION_COLUMNS).where('id', '=', applicationId).executeTakeFirst();
    if (!row) throw applicationNotFound();
    const [roles, permissions] = await Promise.all([applicationRoles(this.db, applicationId), applicationPermissions(this.db, applicationId)]);
    return { app: toApplication(row), roles, permissions };
  }
}
