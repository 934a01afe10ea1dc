import { Controller } from '@nestjs/common';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AccountsImportRoutes } from './accounts-import.routes';

@Controller(['api/v2', 'api'])
export class AccountsImportV2Controller extends AccountsImportRoutes {
  constructor(gateway: CommandGateway) {
    super(gateway);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
