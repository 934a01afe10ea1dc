import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TListReadersQuery, type TPage, type TReader } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { readersWithHealth, toReader } from './reader-rows';

export class ListReadersQuery {
  constructor(readonly input: TListReadersQuery) {}
}

const SORT_COLUMNS = { name: 'readers_v1.name', door: 'readers_v1.door', created_at: 'readers_v1.created_at', last_contact_at: 'reader_health.last_contact_at' } as const;

/** Readers with their last contact and reported queue depth: paging, search on name and door, role filter. */
@QueryHandler(ListReadersQuery)
export class ListReadersHandler implements IQueryHandler<ListReadersQuery, TPage<TReader>> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: ListReadersQuery): Promise<TPage<TReader>> {
    let filtered = readersWithHealth(this.db);
    if (input.role) filtered = filtered.where('readers_v1.role', '=', input.role);
    if (input.search) {
      const pattern = `%${input.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      filtered = filtered.where((eb) => eb.or([eb(eb.fn('lower', ['readers_v1.name']), 'like', pattern), eb(eb.fn('lower', ['readers_v1.door']), 'like', pattern)]));
    }
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered.orderBy(SORT_COLUMNS[input.sortBy], direction).orderBy('readers_v1.id', direction).limit(input.limit).offset((input.page - 1) * input.limit).execute(),
      filtered.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const now = this.clock.now().toISOString();
    return toPage(rows.map((row) => toReader(row, now)), Number(count.total), input.page, input.limit);
  }
}
