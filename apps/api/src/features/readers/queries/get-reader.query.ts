import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TReader } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { readersWithHealth, toReader } from './reader-rows';

export class GetReaderQuery {
  constructor(readonly readerId: string) {}
}

/** One reader with its health; 404 reader.not_found. */
@QueryHandler(GetReaderQuery)
export class GetReaderHandler implements IQueryHandler<GetReaderQuery, TReader> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId }: GetReaderQuery): Promise<TReader> {
    const row = await readersWithHealth(this.db).where('readers_v1.id', '=', readerId).executeTakeFirst();
    if (!row) throw new DomainError('reader.not_found', 'This reader does not exist or was deleted');
    return toReader(row, this.clock.now().toISOString());
  }
}
