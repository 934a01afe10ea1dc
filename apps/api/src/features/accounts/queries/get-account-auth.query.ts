import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccountAuth } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class GetAccountAuthQuery {
  constructor(readonly accountId: string) {}
}

/** `GET account/{id}/auth`: what the status card shows and writes back. */
@QueryHandler(GetAccountAuthQuery)
export class GetAccountAuthHandler implements IQueryHandler<GetAccountAuthQuery, TAccountAuth> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId }: GetAccountAuthQuery): Promise<TAccountAuth> {
    const row = await this.db.selectFrom('accounts_v2').select(['username', 'policy_id', 'status_id']).where('id', '=', accountId).executeTakeFirst();
    if (!row) throw new DomainError('account.not_found', 'Account not found');
    // locks are not projected (ADR 0006): sign-in reads them from the stream, and so does this card
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    const lockedUntil = state.status === 'created' && state.lockedUntil !== null && state.lockedUntil > this.clock.now().toISOString() ? state.lockedUntil : null;
    return { username: row.username, policy_id: row.policy_id, status_id: row.status_id, locked_until: lockedUntil };
  }
}
