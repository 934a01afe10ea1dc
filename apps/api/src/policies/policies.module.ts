import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRegistry } from '../core/projection-registry';
import { CreatePasswordPolicyHandler } from './commands/create-password-policy.handler';
import { PasswordPoliciesProjection } from './projections/password-policies.projection';
import { ListPoliciesHandler } from './queries/list-policies.query';

/** Password policies: for now the default policy and the picker list; the screens come with issue 3. */
@Module({ providers: [PasswordPoliciesProjection, CreatePasswordPolicyHandler, ListPoliciesHandler] })
export class PoliciesModule implements OnModuleInit {
  constructor(
    private readonly registry: ProjectionRegistry,
    private readonly projection: PasswordPoliciesProjection,
  ) {}
  onModuleInit(): void {
    this.registry.register(this.projection);
  }
}
