import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AccessPolicy } from '../../auth/access-policy';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { SmartCardsRoutes } from './smart-cards.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class SmartCardsV2Controller extends SmartCardsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, access: AccessPolicy) {
    super(gateway, queryBus, access);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
