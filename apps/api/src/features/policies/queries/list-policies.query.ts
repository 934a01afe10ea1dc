import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TPolicy } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { toPolicies } from './policy-rows';

export class ListPoliciesQuery {}

/**
 * Every policy, oldest first: the policies screen and the pickers (which read id and title). Not
 * paged: an installation has a handful of policies, and the spec's `GET policies` takes no query.
 */
@QueryHandler(ListPoliciesQuery)
export class ListPoliciesHandler implements IQueryHandler<ListPoliciesQuery, TPolicy[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute(): Promise<TPolicy[]> {
    const rows = await this.db.selectFrom('password_policies_v2').selectAll().orderBy('created_at').orderBy('id').execute();
    return toPolicies(this.db, rows);
  }
}
