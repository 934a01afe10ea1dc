import { Body, HttpCode, Post, Res } from '@nestjs/common';
import { ZImportAccountsInput, type TImportAccountsResult } from '@rollcall/contracts';
import type { Response } from 'express';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { ImportAccountsCommand } from '../commands/import-accounts.handler';
import { ZImportAccountsResult } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/** The bulk CSV import, shared by v1 and v2; its body limit (above the global 1 MB) is raised in http-pipeline.ts. */
export abstract class AccountsImportRoutes {
  constructor(protected readonly gateway: CommandGateway) {}

  protected abstract wrap<T>(value: T): unknown;

  /** 200 even when rows failed: the per-row report is the answer */
  @Post('accounts/import/csv')
  @Documented({ summary: 'Bulk create accounts from CSV rows mapped to first_name, last_name, email, username, password?; at most 1,000 rows (413 beyond); a bad row is reported and skipped', answer: ZImportAccountsResult, body: ZImportAccountsInput })
  @RequirePermission('accounts:import', EVERYWHERE)
  @HttpCode(200)
  async importCsv(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TImportAccountsResult>(new ImportAccountsCommand(parseWith(ZImportAccountsInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }
}
