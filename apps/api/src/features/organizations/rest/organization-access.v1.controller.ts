import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { OrganizationAccessRoutes } from './organization-access.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class OrganizationAccessV1Controller extends OrganizationAccessRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
