import { Module } from '@nestjs/common';
import { CreatePasswordPolicyHandler } from './commands/create-password-policy.handler';
import { DeletePasswordPolicyHandler } from './commands/delete-password-policy.handler';
import { UpdatePasswordPolicyHandler } from './commands/update-password-policy.handler';
import { GetPolicyHandler } from './queries/get-policy.query';
import { ListPoliciesHandler } from './queries/list-policies.query';
import { PoliciesV1Controller } from './rest/policies.v1.controller';
import { PoliciesV2Controller } from './rest/policies.v2.controller';

/** Password policies: REST v1/v2 and (in trpc/app-router.ts) tRPC over the same handlers. */
@Module({
  controllers: [PoliciesV1Controller, PoliciesV2Controller],
  providers: [CreatePasswordPolicyHandler, UpdatePasswordPolicyHandler, DeletePasswordPolicyHandler, ListPoliciesHandler, GetPolicyHandler],
})
export class PoliciesModule {}
