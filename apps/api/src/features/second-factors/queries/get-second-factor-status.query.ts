import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TSecondFactorStatus } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { READ_DB } from '../../../platform/tokens';
import { secondFactorRequiredFor } from '../../auth/second-factor/second-factor-requirement';

export class GetSecondFactorStatusQuery {
  constructor(readonly accountId: string) {}
}

/** What an account has enrolled, and whether its policy requires a second factor: never a secret. */
@QueryHandler(GetSecondFactorStatusQuery)
export class GetSecondFactorStatusHandler implements IQueryHandler<GetSecondFactorStatusQuery, TSecondFactorStatus> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId }: GetSecondFactorStatusQuery): Promise<TSecondFactorStatus> {
    const account = await this.db.selectFrom('accounts_v2').select(['id', 'policy_id']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist');
    const row = await this.db.selectFrom('second_factors_v1').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    const enrolled = row?.totp_status === 'enrolled' && row.totp_enrolment_id && row.totp_enrolled_at;
    const passkeys = await this.db.selectFrom('passkeys_v1').selectAll().where('account_id', '=', accountId).orderBy('registered_at').orderBy('passkey_id').execute();
    return {
      required: await secondFactorRequiredFor(this.db, accountId, account.policy_id),
      factors: [
        ...(enrolled ? [{ id: row.totp_enrolment_id!, kind: 'totp' as const, name: null, enrolled_at: row.totp_enrolled_at!, last_used_at: row.totp_last_used_at }] : []),
        ...passkeys.map((p) => ({ id: p.passkey_id, kind: 'passkey' as const, name: p.name, enrolled_at: p.registered_at, last_used_at: p.last_used_at })),
      ],
      totp_pending: row?.totp_status === 'pending',
      recovery_codes: { remaining: row?.recovery_codes_remaining ?? 0, generated_at: row?.recovery_codes_generated_at ?? null },
    };
  }
}
