import { Controller, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AppConfig } from '../../../platform/config/app-config';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { APP_CONFIG } from '../../../platform/tokens';
import { AuthRoutes } from './auth.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class AuthV1Controller extends AuthRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, @Inject(APP_CONFIG) config: AppConfig) {
    super(gateway, queryBus, config);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
