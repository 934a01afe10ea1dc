import { type IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ListAccountConsentsQuery, type AccountConsent } from '../../oidc/queries/list-account-consents.query';

export class ListOwnConsentsQuery {
  /** the signed-in account: the only one whose consents are read */
  constructor(readonly accountId: string) {}
}

/** The applications the account let see its data, and what (scopes): the OpenID Connect feature's own list. */
@QueryHandler(ListOwnConsentsQuery)
export class ListOwnConsentsHandler implements IQueryHandler<ListOwnConsentsQuery, AccountConsent[]> {
  constructor(private readonly queryBus: QueryBus) {}

  execute({ accountId }: ListOwnConsentsQuery): Promise<AccountConsent[]> {
    return this.queryBus.execute<ListAccountConsentsQuery, AccountConsent[]>(new ListAccountConsentsQuery(accountId));
  }
}
