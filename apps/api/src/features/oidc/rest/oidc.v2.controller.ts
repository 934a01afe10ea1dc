import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZRevokeApplicationConsentInput } from '@rollcall/contracts';
import type { Response } from 'express';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE, on, onWholeAccount } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { consentRevokedMessage, RevokeApplicationConsentCommand } from '../commands/revoke-application-consent.handler';
import { OidcProviderHost } from '../oidc-provider.host';
import { ListAccountConsentsQuery, type AccountConsent } from '../queries/list-account-consents.query';
import { ZApplicationConsent, ZMessageAnswer, ZSigningKeysRotated } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * An account's single sign-on consents (docs/adr/0014), and the provider's signing-key rotation.
 * v2 wraps answers in `{data}`; served unprefixed under /api too, like the application calls.
 */
@Controller(['api/v2', 'api'])
export class OidcV2Controller {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly queryBus: QueryBus,
    private readonly host: OidcProviderHost,
  ) {}

  @Get('account/:id/consents')
  @Documented({ summary: "The account's single sign-on consents: per application the scopes it agreed to share", answer: ZApplicationConsent.array() })
  @RequirePermission('applications:read', on('account', 'param:id'))
  async consents(@Param('id') id: string) {
    const { account_id } = parseWith(ZRevokeApplicationConsentInput.pick({ account_id: true }), { account_id: id });
    return { data: await this.queryBus.execute<ListAccountConsentsQuery, AccountConsent[]>(new ListAccountConsentsQuery(account_id)) };
  }

  /** The next sign-in to that application asks again; its grants, codes and tokens stop working now. */
  @Delete('account/:id/consents/:applicationId')
  @Documented({ summary: "Revoke the account's consent to an application: the next sign-in asks again; its grants, codes and tokens stop working now", answer: ZMessageAnswer })
  @RequirePermission('applications:write', onWholeAccount('param:id'))
  async revoke(@Param('id') id: string, @Param('applicationId') applicationId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZRevokeApplicationConsentInput, { account_id: id, application_id: applicationId });
    const outcome = await this.gateway.execute(new RevokeApplicationConsentCommand(input.account_id, input.application_id, context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: consentRevokedMessage } };
  }

  /**
   * A new signing key signs from now on; the previous one stays in the JWKS (tokens it signed still
   * verify) until the next rotation. Answers the published key ids, the signing one first.
   */
  @Post('oidc/keys/rotate')
  @Documented({ summary: 'A new OpenID Connect signing key signs from now on; the previous one stays in the JWKS until the next rotation', answer: ZSigningKeysRotated })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(200)
  async rotateKeys() {
    return { data: { key_ids: await this.host.rotateSigningKey() } };
  }
}
