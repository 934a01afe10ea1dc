import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { toClaimGroupsV1, type TAccountClaimGroup, type TAccountClaimGroupV1 } from '@rollcall/contracts';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { SsoClaimsRoutes } from './sso-claims.routes';

/** v1: the spec's read only, in its words (member_title, member_description, val.scope). */
@Controller('api/v1')
export class SsoClaimsV1Controller extends SsoClaimsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrapClaims(groups: TAccountClaimGroup[]): TAccountClaimGroupV1[] {
    return toClaimGroupsV1(groups);
  }
}
