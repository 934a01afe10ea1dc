import { Body, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAccountId, ZAssignCardInput, ZDismissUnknownCardInput, ZListSmartCardsInput, ZSmartCardId, type TPage, type TSmartCard, type TUnknownCard } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { AccessPolicy } from '../../auth/access-policy';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { EVERYWHERE, on, onWholeAccount } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { AssignSmartCardCommand } from '../commands/assign-smart-card.handler';
import { DismissUnknownCardCommand } from '../commands/dismiss-unknown-card.handler';
import { CancelRegisterModeCommand } from '../commands/cancel-register-mode.handler';
import { RemoveSmartCardCommand } from '../commands/remove-smart-card.handler';
import { StartRegisterModeCommand, type RegisterModeArmed } from '../commands/start-register-mode.handler';
import { ListSmartCardsQuery } from '../queries/list-smart-cards.query';
import { ListUnknownCardsQuery } from '../queries/list-unknown-cards.query';
import { cardRemovedMessage } from '../attendance.answers';
import { ZMessageAnswer, ZPage, ZRegisterModeArmed, ZRegisterModeCancelled, ZSmartCard, ZUnknownCard } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;
/** what 'Dismiss' answers: the card taken off the list */
const ZDismissedUnknownCard = z.object({ card_uid: z.string() });
const cardIdOf = (id: string) => parseWith(z.object({ card_id: ZSmartCardId }), { card_id: id }).card_id;

/** The smart card and scanner calls of the spec (console-accounts.md section 7), shared by v1 and v2. */
export abstract class SmartCardsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
    protected readonly access: AccessPolicy,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  @Get('account/:id/smartcards')
  @Documented({ summary: "The account's smart cards: 10 per page, newest first (sortBy created_at or card_uid)", answer: ZPage(ZSmartCard), query: ZListSmartCardsInput })
  @RequirePermission('readers:manage', on('account', 'param:id'))
  async list(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.wrap(await this.queryBus.execute<ListSmartCardsQuery, TPage<TSmartCard>>(new ListSmartCardsQuery(accountIdOf(id), parseWith(ZListSmartCardsInput, query))));
  }

  /** 'Remove card'; a card of an account out of the administrator's reach is 'not found' */
  @Delete('account/smartcard/:card_id')
  @Documented({ summary: 'Remove a smart card; its UID is free again (404 smart_card.not_found also for a card of an account out of reach)', answer: ZMessageAnswer })
  @RequirePermission('readers:manage')
  async remove(@Param('card_id') cardId: string, @CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const mayManage = (accountId: string) => this.access.permits(principal, 'readers:manage', 'account', accountId);
    const outcome = await this.gateway.execute<{ id: string; card_uid: string }>(new RemoveSmartCardCommand(cardIdOf(cardId), mayManage, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: cardRemovedMessage(outcome.value.card_uid) });
  }

  /** 'Add Smartcard': arms the free enrollment readers for the account until `expires_at` */
  @Post('scanner/mode/register/:account_id')
  @Documented({ summary: "Register mode: arm every free enrollment reader for the account until expires_at; the next card scanned there becomes the account's", answer: ZRegisterModeArmed })
  @RequirePermission('readers:manage', onWholeAccount('param:account_id'))
  @HttpCode(200)
  async register(@Param('account_id') accountId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<RegisterModeArmed>(new StartRegisterModeCommand(accountIdOf(accountId), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  /** the dialog's Cancel: ends the register modes this administrator started */
  @Post('scanner/cancel')
  @Documented({ summary: 'End the register modes this administrator started (nothing armed is fine)', answer: ZRegisterModeCancelled })
  @RequirePermission('readers:manage')
  @HttpCode(200)
  async cancel(@Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ readers: string[] }>(new CancelRegisterModeCommand(context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  /** ours: give a card (an unknown card's UID) to an account */
  @Post('scanner/unknown-cards/assign')
  @Documented({ summary: 'Give an unknown card (its UID, as scanned) to an account (not in the spec; 409 smart_card.taken)', answer: ZSmartCard, body: ZAssignCardInput })
  @RequirePermission('readers:manage', onWholeAccount('body:account_id'))
  @HttpCode(201)
  async assign(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TSmartCard>(new AssignSmartCardCommand(parseWith(ZAssignCardInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  /** ours: take an unknown card off the list, saying why (a later scan lists it again) */
  @Post('scanner/unknown-cards/dismiss')
  @Documented({ summary: 'Take an unknown card off the list, with a reason (not in the spec; 404 unknown_card.not_found when it is not listed)', answer: ZDismissedUnknownCard, body: ZDismissUnknownCardInput })
  // the list is of every reader's doors, no organization's: taking a card off it needs the permission everywhere
  @RequirePermission('readers:manage', EVERYWHERE)
  @HttpCode(200)
  async dismissUnknown(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ card_uid: string }>(new DismissUnknownCardCommand(parseWith(ZDismissUnknownCardInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  /** ours: the cards scanned that no account holds, latest first */
  @Get('scanner/unknown-cards')
  @Documented({ summary: 'Cards scanned at a reader that no account holds, latest first (not in the spec)', answer: ZUnknownCard.array() })
  @RequirePermission('readers:manage')
  async unknownCards() {
    return this.wrap(await this.queryBus.execute<ListUnknownCardsQuery, TUnknownCard[]>(new ListUnknownCardsQuery()));
  }
}
