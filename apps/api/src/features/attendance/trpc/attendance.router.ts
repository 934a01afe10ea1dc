import type { QueryBus } from '@nestjs/cqrs';
import { ZAccountId, ZAssignCardInput, ZDismissUnknownCardInput, ZListSmartCardsInput, ZSmartCardId, type TPage, type TSmartCard, type TUnknownCard } from '@rollcall/contracts';
import { z } from 'zod';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import type { LiveFeed } from '../../../platform/live/live-feed';
import { EVERYWHERE, on, onWholeAccount } from '../../../platform/access/resource-requirements';
import { attendanceBroadcast } from '../attendance.live';
import { LiveBroadcast } from '../../../platform/trpc/live-broadcast';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { AssignSmartCardCommand } from '../commands/assign-smart-card.handler';
import { DismissUnknownCardCommand } from '../commands/dismiss-unknown-card.handler';
import { CancelRegisterModeCommand } from '../commands/cancel-register-mode.handler';
import { RemoveSmartCardCommand } from '../commands/remove-smart-card.handler';
import { StartRegisterModeCommand, type RegisterModeArmed } from '../commands/start-register-mode.handler';
import { ListAttendanceSlotsQuery, type AttendanceSlotRow } from '../queries/list-attendance-slots.query';
import { ListSmartCardsQuery } from '../queries/list-smart-cards.query';
import { ListUnknownCardsQuery } from '../queries/list-unknown-cards.query';
import { cardRemovedMessage } from '../attendance.answers';


/** `smartCards.*` and `scanner.*` of the console's API: the same handlers as REST v1 and v2. */
export function buildSmartCardsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    ofAccount: permittedProcedure('readers:manage', on('account', 'input:account_id'))
      .input(ZListSmartCardsInput.extend({ account_id: ZAccountId }))
      .query(({ input: { account_id, ...page } }) => queryBus.execute<ListSmartCardsQuery, TPage<TSmartCard>>(new ListSmartCardsQuery(account_id, page))),
    remove: permittedProcedure('readers:manage')
      .input(z.object({ card_id: ZSmartCardId }))
      .mutation(async ({ input, ctx }) => {
        const mayManage = (accountId: string) => ctx.access.permits(ctx.principal, 'readers:manage', 'account', accountId);
        const outcome = await gateway.execute<{ id: string; card_uid: string }>(new RemoveSmartCardCommand(input.card_id, mayManage, ctx.context));
        return { message: cardRemovedMessage(outcome.value.card_uid) };
      }),
    startRegisterMode: permittedProcedure('readers:manage', onWholeAccount('input:account_id'))
      .input(z.object({ account_id: ZAccountId }))
      .mutation(async ({ input, ctx }) => (await gateway.execute<RegisterModeArmed>(new StartRegisterModeCommand(input.account_id, ctx.context))).value),
    cancelRegisterMode: permittedProcedure('readers:manage').mutation(async ({ ctx }) => (await gateway.execute<{ readers: string[] }>(new CancelRegisterModeCommand(ctx.context))).value),
    assign: permittedProcedure('readers:manage', onWholeAccount('input:account_id'))
      .input(ZAssignCardInput)
      .mutation(async ({ input, ctx }) => (await gateway.execute<TSmartCard>(new AssignSmartCardCommand(input, ctx.context))).value),
    // the list is of every reader's doors, no organization's: taking a card off it needs the permission everywhere
    dismissUnknown: permittedProcedure('readers:manage', EVERYWHERE)
      .input(ZDismissUnknownCardInput)
      .mutation(async ({ input, ctx }) => (await gateway.execute<{ card_uid: string }>(new DismissUnknownCardCommand(input, ctx.context))).value),
    unknownCards: permittedProcedure('readers:manage').query(() => queryBus.execute<ListUnknownCardsQuery, TUnknownCard[]>(new ListUnknownCardsQuery())),
    slots: permittedProcedure('attendance:read', on('account', 'input:account_id'))
      .input(z.object({ account_id: ZAccountId }))
      .query(({ input }) => queryBus.execute<ListAttendanceSlotsQuery, AttendanceSlotRow[]>(new ListAttendanceSlotsQuery({ accountId: input.account_id }))),
  });
}

/**
 * `live.attendance`: scans, unknown cards, register mode and presence as they land, the messages of
 * one commit together as an array (LiveFeed's ATTENDANCE_BATCH), each message only to those who hold
 * the permission of its HTTP read, for the account it is about (attendanceMessageRequirement,
 * docs/adr/0011), checked as it is pushed. The pushes are written per audience, outside tRPC's
 * per-subscription work (LiveBroadcast, docs/adr/0024); tRPC starts, stops and ends the subscription.
 */
export const attendanceLiveProcedure = (live: LiveFeed) => {
  const broadcast = new LiveBroadcast(live, attendanceBroadcast);
  return permittedProcedure('attendance:read').subscription(({ ctx, path, signal }) => broadcast.follow(ctx.live, path, signal));
};
