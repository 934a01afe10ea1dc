import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListAccountConsentsQuery {
  constructor(readonly accountId: string) {}
}

/** One remembered consent: the application and the scopes the account agreed to share with it. */
export interface AccountConsent {
  application_id: string;
  application_title: string;
  scopes: string[];
  given_at: string;
  updated_at: string;
}

/** An account's consents to live applications, by application title (docs/adr/0014, 'Consent'). */
@QueryHandler(ListAccountConsentsQuery)
export class ListAccountConsentsHandler implements IQueryHandler<ListAccountConsentsQuery, AccountConsent[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId }: ListAccountConsentsQuery): Promise<AccountConsent[]> {
    const rows = await this.db
      .selectFrom('application_consents_v1 as c')
      .innerJoin('applications_v1 as a', 'a.id', 'c.application_id')
      .select(['c.application_id', 'a.title as application_title', 'c.scopes', 'c.given_at', 'c.updated_at'])
      .where('c.account_id', '=', accountId)
      .orderBy('a.title_lower')
      .orderBy('a.id')
      .execute();
    return rows.map((row) => ({ ...row, scopes: JSON.parse(row.scopes) as string[] }));
  }
}
