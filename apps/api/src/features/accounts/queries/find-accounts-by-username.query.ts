import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FIND_ACCOUNTS_LIMIT, type TAccountSearchItem } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class FindAccountsByUsernameQuery {
  /** `scope`: where the asking administrator may read accounts (docs/adr/0011) */
  constructor(
    readonly username: string,
    readonly scope: Scope,
  ) {}
}

/** Escapes LIKE wildcards so 'a_b' means the text 'a_b'. */
const prefixPattern = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Pickers: usernames starting with the text, case-insensitively, alphabetical, at most 20. An empty text finds nothing. */
@QueryHandler(FindAccountsByUsernameQuery)
export class FindAccountsByUsernameHandler implements IQueryHandler<FindAccountsByUsernameQuery, TAccountSearchItem[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ username, scope }: FindAccountsByUsernameQuery): Promise<TAccountSearchItem[]> {
    if (!username) return [];
    const withinScope = accountsWithin(scope, 'accounts_v2.id');
    const rows = await this.db
      .selectFrom('accounts_v2')
      .$if(withinScope !== null, (query) => query.where(withinScope!))
      .select(['id', 'username', 'first_name', 'last_name'])
      .where(sql<boolean>`username_lower like ${prefixPattern(username)} escape '\\'`)
      .orderBy('username_lower')
      .limit(FIND_ACCOUNTS_LIMIT)
      .execute();
    return rows.map((row) => ({ id: row.id, username: row.username, username_readable: row.username, first_name: row.first_name, last_name: row.last_name }));
  }
}
