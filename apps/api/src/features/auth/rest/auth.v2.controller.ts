import { Controller, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AppConfig } from '../../../platform/config/app-config';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { APP_CONFIG } from '../../../platform/tokens';
import { AuthRoutes } from './auth.routes';

/** v2 wraps every answer in `{data}`; it is also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class AuthV2Controller extends AuthRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, @Inject(APP_CONFIG) config: AppConfig) {
    super(gateway, queryBus, config);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
