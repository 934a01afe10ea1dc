import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * Who holds a card, as far as the caller may see (docs/adr/0011): the holder's name only when
 * `mayRead` allows that account; otherwise only that someone holds it, never who nor which account.
 */
export type TCardHolder = { held: false } | { held: true; visible: true; account_id: string; first_name: string; last_name: string } | { held: true; visible: false };

export class FindCardHolderQuery {
  constructor(
    readonly cardUid: string,
    readonly mayRead: (accountId: string) => Promise<boolean>,
  ) {}
}

/** 'Add a smartcard' refused a card another account holds (`scanner.card_taken`): the dialog names whose. */
@QueryHandler(FindCardHolderQuery)
export class FindCardHolderHandler implements IQueryHandler<FindCardHolderQuery, TCardHolder> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ cardUid, mayRead }: FindCardHolderQuery): Promise<TCardHolder> {
    const card = await this.db.selectFrom('smart_cards_v1').select('account_id').where('card_uid', '=', cardUid.toUpperCase()).executeTakeFirst();
    if (!card) return { held: false };
    if (!(await mayRead(card.account_id))) return { held: true, visible: false };
    const account = await this.db.selectFrom('accounts_v2').select(['id', 'first_name', 'last_name']).where('id', '=', card.account_id).executeTakeFirst();
    if (!account) return { held: true, visible: false };
    return { held: true, visible: true, account_id: account.id, first_name: account.first_name, last_name: account.last_name };
  }
}
