import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TPolicy } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { toPolicies } from './policy-rows';

export class GetPolicyQuery {
  constructor(readonly policyId: string) {}
}

@QueryHandler(GetPolicyQuery)
export class GetPolicyHandler implements IQueryHandler<GetPolicyQuery, TPolicy> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ policyId }: GetPolicyQuery): Promise<TPolicy> {
    const row = await this.db.selectFrom('password_policies_v2').selectAll().where('id', '=', policyId).executeTakeFirst();
    if (!row) throw new DomainError('policy.not_found', 'This password policy does not exist');
    const [policy] = await toPolicies(this.db, [row]);
    return policy;
  }
}
