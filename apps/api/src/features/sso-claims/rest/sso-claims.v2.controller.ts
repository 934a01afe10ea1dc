import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { TAccountClaimGroup } from '@rollcall/contracts';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { SsoClaimsWriteRoutes } from './sso-claims.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class SsoClaimsV2Controller extends SsoClaimsWriteRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrapClaims(groups: TAccountClaimGroup[]): { data: TAccountClaimGroup[] } {
    return { data: groups };
  }
}
