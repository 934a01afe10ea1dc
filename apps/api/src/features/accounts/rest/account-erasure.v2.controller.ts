import { Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ZAccountId } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { onWholeAccount } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { EraseAccountPersonalDataCommand, PERSONAL_DATA_ERASED_MESSAGE } from '../commands/erase-account-personal-data.handler';
import { ZMessageAnswer } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * `POST account/{id}/erase` (ours, v2 only, docs/adr/0015): the right to be forgotten. Takes
 * `accounts:delete` where the account is, as deleting does; a deleted account can still be erased.
 */
@Controller(['api/v2', 'api'])
export class AccountErasureV2Controller {
  constructor(private readonly gateway: CommandGateway) {}

  @Post('account/:id/erase')
  @Documented({ summary: "Erase the account's personal data for good (names, e-mails, phones, birth date, picture, claim values): a live account is deleted too; its history keeps its shape, as an erased person. 409 account.erased when done before", answer: ZMessageAnswer })
  @HttpCode(200)
  @RequirePermission('accounts:delete', onWholeAccount('param:id'))
  async erase(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { id: accountId } = parseWith(z.object({ id: ZAccountId }), { id });
    const outcome = await this.gateway.execute(new EraseAccountPersonalDataCommand(accountId, context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: PERSONAL_DATA_ERASED_MESSAGE } };
  }
}
