import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../core/tokens';
import type { ReadDatabase } from '../../read-db/read-database';

export class ListPoliciesQuery {}

export interface TPolicyOption {
  id: string;
  title: string;
}

/** The policies offered by pickers (id, title), oldest first. */
@QueryHandler(ListPoliciesQuery)
export class ListPoliciesHandler implements IQueryHandler<ListPoliciesQuery, TPolicyOption[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  execute(): Promise<TPolicyOption[]> {
    return this.db.selectFrom('password_policies_v1').select(['id', 'title']).orderBy('created_at').orderBy('id').execute();
  }
}
