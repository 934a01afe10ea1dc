import { CommandBus, CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { DomainError } from '@rollcall/domain';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { RevokeApplicationConsentCommand } from '../../oidc/commands/revoke-application-consent.handler';
import { ListAccountConsentsQuery, type AccountConsent } from '../../oidc/queries/list-account-consents.query';

export class RevokeOwnConsentCommand {
  constructor(
    /** the signed-in account: only its own consent is revoked */
    readonly accountId: string,
    readonly applicationId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * The account takes back its consent to an application, through the OpenID Connect feature's own
 * command (ApplicationConsentRevoked in its history; the application's grants, codes and tokens stop
 * working now; its next sign-in there asks again). An application it gave no consent to is not found.
 */
@CommandHandler(RevokeOwnConsentCommand)
export class RevokeOwnConsentHandler implements ICommandHandler<RevokeOwnConsentCommand, CommandOutcome<{ ok: true }>> {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  async execute({ accountId, applicationId, context }: RevokeOwnConsentCommand): Promise<CommandOutcome<{ ok: true }>> {
    const consents = await this.queryBus.execute<ListAccountConsentsQuery, AccountConsent[]>(new ListAccountConsentsQuery(accountId));
    if (!consents.some((consent) => consent.application_id === applicationId)) throw new DomainError('application.not_found', 'You gave no consent to this application', 'application_id');
    return this.commandBus.execute<RevokeApplicationConsentCommand, CommandOutcome<{ ok: true }>>(new RevokeApplicationConsentCommand(accountId, applicationId, context));
  }
}
