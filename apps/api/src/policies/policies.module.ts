import { Module } from '@nestjs/common';
import { CreatePasswordPolicyHandler } from './commands/create-password-policy.handler';
import { ListPoliciesHandler } from './queries/list-policies.query';

/** Password policies: for now the default policy and the picker list; the screens come with issue 3. */
@Module({ providers: [CreatePasswordPolicyHandler, ListPoliciesHandler] })
export class PoliciesModule {}
