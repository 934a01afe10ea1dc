import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AccessPolicy } from '../../auth/access-policy';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { SmartCardsRoutes } from './smart-cards.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class SmartCardsV1Controller extends SmartCardsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, access: AccessPolicy) {
    super(gateway, queryBus, access);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
