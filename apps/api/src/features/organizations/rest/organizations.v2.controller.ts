import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { OrganizationsRoutes } from './organizations.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class OrganizationsV2Controller extends OrganizationsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
