import { Controller } from '@nestjs/common';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AccountsImportRoutes } from './accounts-import.routes';

@Controller('api/v1')
export class AccountsImportV1Controller extends AccountsImportRoutes {
  constructor(gateway: CommandGateway) {
    super(gateway);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
