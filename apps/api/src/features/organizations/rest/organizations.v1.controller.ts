import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { OrganizationsRoutes } from './organizations.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class OrganizationsV1Controller extends OrganizationsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
