import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { ReadersRoutes } from './readers.routes';

/** Ours, not in the spec: served on v2 (answers wrapped in `{data}`) and unprefixed /api only. */
@Controller(['api/v2', 'api'])
export class ReadersV2Controller extends ReadersRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
