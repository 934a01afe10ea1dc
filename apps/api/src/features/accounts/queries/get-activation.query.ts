import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TActivationInfo } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { accountOfActivationToken } from '../commands/activate-account.handler';

export class GetActivationQuery {
  constructor(readonly token: string) {}
}

/** `GET account/activation/{token}`: 404 activation.invalid for unknown, used, replaced and expired links alike. */
@QueryHandler(GetActivationQuery)
export class GetActivationHandler implements IQueryHandler<GetActivationQuery, TActivationInfo> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token }: GetActivationQuery): Promise<TActivationInfo> {
    const { state } = await accountOfActivationToken(this.db, this.store, token, this.clock.now().toISOString());
    const policy = state.policyId
      ? await this.db.selectFrom('password_policies_v2').select(['title', 'min_length', 'min_strength', 'history']).where('id', '=', state.policyId).executeTakeFirst()
      : undefined;
    return { username: state.username, expires_at: state.activation!.expiresAt, policy: policy ?? null };
  }
}
