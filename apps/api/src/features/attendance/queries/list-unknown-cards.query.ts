import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TUnknownCard } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListUnknownCardsQuery {
  constructor(readonly limit = 100) {}
}

/** The 'unknown card' items an administrator can assign, latest scan first. */
@QueryHandler(ListUnknownCardsQuery)
export class ListUnknownCardsHandler implements IQueryHandler<ListUnknownCardsQuery, TUnknownCard[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ limit }: ListUnknownCardsQuery): Promise<TUnknownCard[]> {
    const rows = await this.db
      .selectFrom('unknown_cards_v1')
      .leftJoin('readers_v1', 'readers_v1.id', 'unknown_cards_v1.reader_id')
      .select(['unknown_cards_v1.card_uid', 'unknown_cards_v1.reader_id', 'readers_v1.name', 'unknown_cards_v1.door', 'unknown_cards_v1.scanned_at', 'unknown_cards_v1.scans'])
      .orderBy('unknown_cards_v1.scanned_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ card_uid: row.card_uid, reader_id: row.reader_id, reader_name: row.name ?? '', door: row.door, scanned_at: row.scanned_at, scans: Number(row.scans) }));
  }
}
