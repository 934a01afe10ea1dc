import { Body, Controller, createParamDecorator, Delete, Get, HttpCode, Param, Patch, Post, Res, type ExecutionContext } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountId,
  ZConfirmTotpInput,
  ZMessageAnswer,
  ZPasskeyOptions,
  ZPasskeyRegistered,
  ZRegisterPasskeyInput,
  ZRenamePasskeyInput,
  ZSecondFactorConfirmation,
  ZSecondFactorEnrolmentProof,
  type TPasskeyOptions,
  type TPasskeyRegistered,
  ZRecoveryCodes,
  ZResetSecondFactorsInput,
  ZSecondFactorStatus,
  ZTotpConfirmed,
  ZTotpEnrolment,
  type TRecoveryCodes,
  type TSecondFactorStatus,
  type TTotpConfirmed,
  type TTotpEnrolment,
} from '@rollcall/contracts';
import type { Request, Response } from 'express';
import { servedOrigin } from '../../../platform/http/http-pipeline';
import { z } from 'zod';
import { RequirePermission, sessionOf } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import { AllowedWhileSecondFactorEnrolmentRequired } from '../../../platform/access/route-decorators';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { Documented } from '../../../platform/http/openapi/rest-description';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { parseWith } from '../../../platform/http/zod-body';
import { ConfirmTotpCommand } from '../commands/confirm-totp.handler';
import { RegenerateRecoveryCodesCommand } from '../commands/regenerate-recovery-codes.handler';
import { RemoveTotpCommand } from '../commands/remove-totp.handler';
import { ResetSecondFactorsCommand } from '../commands/reset-second-factors.handler';
import { StartTotpEnrolmentCommand } from '../commands/start-totp-enrolment.handler';
import { GetSecondFactorStatusQuery } from '../queries/get-second-factor-status.query';
import { passkeyRemovedMessage, passkeyRenamedMessage, secondFactorsResetMessage, totpRemovedMessage } from '../second-factors.answers';
import { ConfirmationOptionsCommand, PasskeyRegistrationOptionsCommand, RegisterPasskeyCommand, RemovePasskeyCommand, RenamePasskeyCommand, type OwnSession } from '../commands/passkeys.handlers';

const ZAccountParam = z.object({ id: ZAccountId });
const ZPasskeyParam = z.object({ passkeyId: ZAccountId.meta({ description: "the passkey's id" }) });

/** the browser's Origin when it is the address the request came to (servedOrigin), else null */
const ServedOrigin = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<Request>();
  return servedOrigin(request.headers.origin, request.headers.host);
});

const ownSession = (principal: Principal, origin: string | null): OwnSession => {
  const session = sessionOf(principal);
  return { accountId: session.accountId, sessionId: session.sessionId, origin: origin ?? null };
};
/** an absent or empty body is no confirmation (the handler answers second_factor.confirmation_required) */
const confirmationOf = (body: unknown) => (body && typeof body === 'object' && Object.keys(body).length ? parseWith(ZSecondFactorConfirmation, body) : undefined);
/** an enrolment's proof: a current factor, or the current password (absent: EnrolmentProof decides whether the session is recent enough) */
const enrolmentProofOf = (body: unknown) => (body && typeof body === 'object' && Object.keys(body).length ? parseWith(ZSecondFactorEnrolmentProof, body) : undefined);

/**
 * Second factors (docs/adr/0025), Rollcall's own calls (v2 and unprefixed, like the other calls
 * beyond the spec): the own account's, for its session only (an access token cannot enrol or
 * remove a factor), also while its policy makes it enrol first; and an administrator's view and
 * reset of an account's, under `accounts:read` on the account and `accounts:credentials` on the
 * whole account (docs/adr/0011).
 */
@Controller(['api/v2', 'api'])
export class SecondFactorsV2Controller {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly queryBus: QueryBus,
  ) {}

  @AllowedWhileSecondFactorEnrolmentRequired()
  @Get('second-factors')
  @Documented({ summary: "The own account's second factors: what is enrolled, recovery codes left, whether the policy requires one (never a secret)", answer: ZSecondFactorStatus })
  async own(@CurrentPrincipal() principal: Principal) {
    return { data: await this.queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(sessionOf(principal).accountId)) };
  }

  @AllowedWhileSecondFactorEnrolmentRequired()
  @Post('second-factors/totp')
  @Documented({ summary: 'Start enrolling an authenticator app: the secret (shown once), its otpauth URI and QR code; pending until a first code confirms it. An account with a second factor confirms with a current code or passkey in the body first; one without gives its current_password unless its session signed in within 5 minutes (else 400 second_factor.reauthentication_required)', answer: ZTotpEnrolment, body: ZSecondFactorEnrolmentProof })
  async startTotp(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TTotpEnrolment>(new StartTotpEnrolmentCommand(ownSession(principal, origin), context, enrolmentProofOf(body)));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }

  @AllowedWhileSecondFactorEnrolmentRequired()
  @Post('second-factors/totp/confirm')
  @Documented({ summary: "Confirm the enrolment with the app's first code; an account without recovery codes gets ten (shown once)", answer: ZTotpConfirmed, body: ZConfirmTotpInput })
  @HttpCode(200)
  async confirmTotp(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZConfirmTotpInput, body);
    const outcome = await this.gateway.execute<TTotpConfirmed>(new ConfirmTotpCommand(sessionOf(principal).accountId, input, context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }

  @Delete('second-factors/totp')
  @Documented({ summary: 'Remove the own authenticator app (with the last factor, the recovery codes) after a current code or passkey in the body; 409 second_factor.required where the policy requires one', answer: ZMessageAnswer, body: ZSecondFactorConfirmation })
  async removeTotp(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new RemoveTotpCommand(ownSession(principal, origin), confirmationOf(body), context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: totpRemovedMessage } };
  }

  @Post('second-factors/recovery-codes')
  @Documented({ summary: 'Ten new recovery codes replace the old set (shown once), after a current code or passkey in the body', answer: ZRecoveryCodes, body: ZSecondFactorConfirmation })
  @HttpCode(200)
  async regenerate(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TRecoveryCodes>(new RegenerateRecoveryCodesCommand(ownSession(principal, origin), confirmationOf(body), context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }

  @AllowedWhileSecondFactorEnrolmentRequired()
  @Post('second-factors/passkeys/registration-options')
  @Documented({ summary: "Options for the browser's navigator.credentials.create (SimpleWebAuthn's startRegistration): a challenge for this session, valid three minutes, once. An account with a second factor confirms with a current code or passkey in the body first; one without gives its current_password unless its session signed in within 5 minutes (else 400 second_factor.reauthentication_required)", answer: ZPasskeyOptions, body: ZSecondFactorEnrolmentProof })
  @HttpCode(200)
  async passkeyRegistrationOptions(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext) {
    return { data: (await this.gateway.execute<TPasskeyOptions>(new PasskeyRegistrationOptionsCommand(ownSession(principal, origin), context, enrolmentProofOf(body)))).value };
  }

  @AllowedWhileSecondFactorEnrolmentRequired()
  @Post('second-factors/passkeys')
  @Documented({ summary: "Register a passkey: the browser's registration response and a name; an account without recovery codes gets ten (shown once)", answer: ZPasskeyRegistered, body: ZRegisterPasskeyInput })
  async registerPasskey(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZRegisterPasskeyInput, body);
    const outcome = await this.gateway.execute<TPasskeyRegistered>(new RegisterPasskeyCommand(ownSession(principal, origin), input, context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }

  @Patch('second-factors/passkeys/:passkeyId')
  @Documented({ summary: 'Rename one of the own passkeys', answer: ZMessageAnswer, body: ZRenamePasskeyInput, params: ZPasskeyParam })
  async renamePasskey(@CurrentPrincipal() principal: Principal, @Param('passkeyId') passkeyId: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const params = parseWith(ZPasskeyParam, { passkeyId });
    const input = parseWith(ZRenamePasskeyInput, body);
    const outcome = await this.gateway.execute(new RenamePasskeyCommand(sessionOf(principal).accountId, params.passkeyId, input.name, context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: passkeyRenamedMessage } };
  }

  @Post('second-factors/passkeys/confirmation-options')
  @Documented({ summary: 'Options to confirm with one of the own passkeys before a factor is removed or the recovery codes replaced (navigator.credentials.get)', answer: ZPasskeyOptions })
  @HttpCode(200)
  async confirmationOptions(@CurrentPrincipal() principal: Principal, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext) {
    return { data: (await this.gateway.execute<TPasskeyOptions>(new ConfirmationOptionsCommand(ownSession(principal, origin), context))).value };
  }

  @Delete('second-factors/passkeys/:passkeyId')
  @Documented({ summary: 'Remove one of the own passkeys after a current code or passkey in the body; 409 second_factor.required for the last factor where the policy requires one', answer: ZMessageAnswer, body: ZSecondFactorConfirmation, params: ZPasskeyParam })
  async removePasskey(@CurrentPrincipal() principal: Principal, @Param('passkeyId') passkeyId: string, @Body() body: unknown, @ServedOrigin() origin: string | null, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const params = parseWith(ZPasskeyParam, { passkeyId });
    const outcome = await this.gateway.execute(new RemovePasskeyCommand(ownSession(principal, origin), params.passkeyId, confirmationOf(body), context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: passkeyRemovedMessage } };
  }

  @Get('account/:id/second-factors')
  @Documented({ summary: "An account's second factors (never a secret)", answer: ZSecondFactorStatus, params: ZAccountParam })
  @RequirePermission('accounts:read', on('account', 'param:id'))
  async ofAccount(@Param('id') id: string) {
    const { id: accountId } = parseWith(ZAccountParam, { id });
    return { data: await this.queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(accountId)) };
  }

  @Post('account/:id/second-factors/reset')
  @Documented({ summary: "Reset an account's second factors and recovery codes, with a reason (an event in its history)", answer: ZMessageAnswer, body: ZResetSecondFactorsInput, params: ZAccountParam })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  @HttpCode(200)
  async reset(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { id: accountId } = parseWith(ZAccountParam, { id });
    const input = parseWith(ZResetSecondFactorsInput, body);
    const outcome = await this.gateway.execute(new ResetSecondFactorsCommand(accountId, input.reason, context, principal.accountId));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: secondFactorsResetMessage } };
  }
}
