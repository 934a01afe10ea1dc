import type { QueryBus } from '@nestjs/cqrs';
import { ZAccountId, ZCardUid, ZListReadersInput, ZMoveReaderInput, ZReaderById, ZRegisterReaderInput, ZRenameReaderInput, ZResetScanSequenceInput, type TIssuedReaderToken, type TPage, type TReader } from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { z } from 'zod';
import { EVERYWHERE, onWholeAccount } from '../../../platform/access/resource-requirements';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { ChangeReaderCommand } from '../commands/change-reader.handler';
import { ResetScanSequenceCommand } from '../commands/reset-scan-sequence.handler';
import { DeleteReaderCommand } from '../commands/delete-reader.handler';
import { IssueReaderTokenCommand } from '../commands/issue-reader-token.handler';
import { RegisterReaderCommand } from '../commands/register-reader.handler';
import { RevokeReaderTokenCommand } from '../commands/revoke-reader-token.handler';
import { FindCardHolderQuery, type TCardHolder } from '../queries/find-card-holder.query';
import { GetReaderQuery } from '../queries/get-reader.query';
import { ListReadersQuery } from '../queries/list-readers.query';
import { readerDeletedMessage, readerTokenRevokedMessage } from '../readers.answers';

/** `readers.*` of the console's API: the same handlers as REST v2. */
export function buildReadersRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const reader = (id: string) => queryBus.execute<GetReaderQuery, TReader>(new GetReaderQuery(id));
  return router({
    list: permittedProcedure('readers:manage')
      .input(ZListReadersInput)
      .query(({ input }) => queryBus.execute<ListReadersQuery, TPage<TReader>>(new ListReadersQuery(input))),
    // 'Add a smartcard' was refused a card (`scanner.card_taken`): whose it is, asked by who armed the
    // readers for that account (the permission startRegisterMode asks); the holder is named only to
    // who may read the holder's account (docs/adr/0011)
    cardHolder: permittedProcedure('readers:manage', onWholeAccount('input:account_id'))
      .input(z.object({ account_id: ZAccountId, card_uid: ZCardUid }))
      .query(({ input, ctx }) =>
        queryBus.execute<FindCardHolderQuery, TCardHolder>(new FindCardHolderQuery(input.card_uid, (accountId) => ctx.access.permits(ctx.principal, 'accounts:read', 'account', accountId))),
      ),
    byId: permittedProcedure('readers:manage')
      .input(ZReaderById)
      .query(({ input }) => reader(input.id)),
    register: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZRegisterReaderInput)
      .mutation(async ({ input, ctx }) => reader((await gateway.execute<{ id: string }>(new RegisterReaderCommand(input, ctx.context))).value.id)),
    rename: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById.extend(ZRenameReaderInput.shape))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeReaderCommand(input.id, { name: input.name }, ctx.context));
        return reader(input.id);
      }),
    move: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById.extend(ZMoveReaderInput.shape))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeReaderCommand(input.id, { door: input.door }, ctx.context));
        return reader(input.id);
      }),
    resetSequence: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById.extend(ZResetScanSequenceInput.shape))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ResetScanSequenceCommand(input.id, input.reason, ctx.context));
        return reader(input.id);
      }),
    issueToken: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById)
      .mutation(async ({ input, ctx }) => (await gateway.execute<TIssuedReaderToken>(new IssueReaderTokenCommand(input.id, ctx.context))).value),
    revokeToken: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new RevokeReaderTokenCommand(input.id, ctx.context));
        return { message: readerTokenRevokedMessage };
      }),
    delete: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZReaderById)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; name: string }>(new DeleteReaderCommand(input.id, ctx.context));
        return { message: readerDeletedMessage(outcome.value.name) };
      }),
  });
}
