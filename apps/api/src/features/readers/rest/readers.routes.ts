import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZListReadersInput, ZMoveReaderInput, ZReaderId, ZRegisterReaderInput, ZRenameReaderInput, ZResetScanSequenceInput, type TIssuedReaderToken, type TPage, type TReader } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { ChangeReaderCommand } from '../commands/change-reader.handler';
import { DeleteReaderCommand } from '../commands/delete-reader.handler';
import { IssueReaderTokenCommand } from '../commands/issue-reader-token.handler';
import { RegisterReaderCommand } from '../commands/register-reader.handler';
import { ResetScanSequenceCommand } from '../commands/reset-scan-sequence.handler';
import { RevokeReaderTokenCommand } from '../commands/revoke-reader-token.handler';
import { GetReaderQuery } from '../queries/get-reader.query';
import { ListReadersQuery } from '../queries/list-readers.query';
import { readerDeletedMessage, readerTokenRevokedMessage } from '../readers.answers';
import { ZIssuedReaderToken, ZMessageAnswer, ZPage, ZReader } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const readerIdOf = (id: string) => parseWith(z.object({ id: ZReaderId }), { id }).id;

/**
 * Door readers for administrators (not in the spec; docs/readers.md, 'Readers and their tokens'). Readers
 * belong to no organization: writes need readers:manage everywhere, reads it anywhere.
 */
export abstract class ReadersRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  @Get('readers')
  @Documented({ summary: 'Door readers with their last contact, queue depth and register mode, paged', answer: ZPage(ZReader), query: ZListReadersInput })
  @RequirePermission('readers:manage')
  async list(@Query() query: Record<string, unknown>) {
    return this.wrap(await this.queryBus.execute<ListReadersQuery, TPage<TReader>>(new ListReadersQuery(parseWith(ZListReadersInput, query))));
  }

  @Post('readers')
  @Documented({ summary: 'Register a door reader (name unique case-insensitively; role door or enrollment)', answer: ZReader, body: ZRegisterReaderInput })
  @RequirePermission('readers:manage', EVERYWHERE)
  @HttpCode(201)
  async register(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new RegisterReaderCommand(parseWith(ZRegisterReaderInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetReaderQuery, TReader>(new GetReaderQuery(outcome.value.id)));
  }

  @Get('readers/:id')
  @Documented({ summary: 'One door reader', answer: ZReader })
  @RequirePermission('readers:manage')
  async read(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<GetReaderQuery, TReader>(new GetReaderQuery(readerIdOf(id))));
  }

  @Patch('readers/:id/name')
  @Documented({ summary: 'Rename a door reader', answer: ZReader, body: ZRenameReaderInput })
  @RequirePermission('readers:manage', EVERYWHERE)
  async rename(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.change(readerIdOf(id), parseWith(ZRenameReaderInput, body), context, response);
  }

  @Patch('readers/:id/door')
  @Documented({ summary: 'Move a door reader to another door', answer: ZReader, body: ZMoveReaderInput })
  @RequirePermission('readers:manage', EVERYWHERE)
  async move(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.change(readerIdOf(id), parseWith(ZMoveReaderInput, body), context, response);
  }

  /** the reader's queue was wiped: it may number its scans from 1 again; the reason is recorded */
  @Post('readers/:id/reset-sequence')
  @Documented({ summary: "The reader's queue was wiped: it may number its scans from 1 again (the reason is recorded)", answer: ZReader, body: ZResetScanSequenceInput })
  @RequirePermission('readers:manage', EVERYWHERE)
  @HttpCode(200)
  async resetSequence(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const readerId = readerIdOf(id);
    const outcome = await this.gateway.execute(new ResetScanSequenceCommand(readerId, parseWith(ZResetScanSequenceInput, body).reason, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetReaderQuery, TReader>(new GetReaderQuery(readerId)));
  }

  private async change(readerId: string, change: { name: string } | { door: string }, context: RequestContext, response: Response) {
    const outcome = await this.gateway.execute(new ChangeReaderCommand(readerId, change, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetReaderQuery, TReader>(new GetReaderQuery(readerId)));
  }

  /** a new token, shown this once; it replaces the reader's previous one */
  @Post('readers/:id/token')
  @Documented({ summary: 'A new token for the reader, shown this once; it replaces the previous one at once', answer: ZIssuedReaderToken })
  @RequirePermission('readers:manage', EVERYWHERE)
  @HttpCode(201)
  async issueToken(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TIssuedReaderToken>(new IssueReaderTokenCommand(readerIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  @Delete('readers/:id/token')
  @Documented({ summary: "Revoke the reader's token (404 reader.token_not_found when it has none)", answer: ZMessageAnswer })
  @RequirePermission('readers:manage', EVERYWHERE)
  async revokeToken(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new RevokeReaderTokenCommand(readerIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: readerTokenRevokedMessage });
  }

  @Delete('readers/:id')
  @Documented({ summary: 'Delete a door reader: its token and register mode end; its scans stay', answer: ZMessageAnswer })
  @RequirePermission('readers:manage', EVERYWHERE)
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; name: string }>(new DeleteReaderCommand(readerIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: readerDeletedMessage(outcome.value.name) });
  }
}
