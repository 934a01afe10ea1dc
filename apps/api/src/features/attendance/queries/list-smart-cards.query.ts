import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TListSmartCardsQuery, type TPage, type TSmartCard } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { assertAccountExists } from '../../accounts/queries/assert-account-exists';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListSmartCardsQuery {
  constructor(
    readonly accountId: string,
    readonly input: TListSmartCardsQuery,
  ) {}
}

/** The account's Smart cards tab: Card ID, Card UID, Added at; 10 per page, newest first by default. */
@QueryHandler(ListSmartCardsQuery)
export class ListSmartCardsHandler implements IQueryHandler<ListSmartCardsQuery, TPage<TSmartCard>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, input }: ListSmartCardsQuery): Promise<TPage<TSmartCard>> {
    await assertAccountExists(this.db, accountId);
    const filtered = this.db.selectFrom('smart_cards_v1').where('account_id', '=', accountId);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .select(['id', 'card_uid', 'created_at'])
        .orderBy(input.sortBy, direction)
        .orderBy('id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return toPage(rows, Number(count.total), input.page, input.limit);
  }
}
