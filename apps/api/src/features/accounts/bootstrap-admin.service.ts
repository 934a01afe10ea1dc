import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEFAULT_PASSWORD_POLICY } from '@rollcall/domain';
import { CreateAccountCommand } from './commands/create-account.handler';
import { systemContext } from '../../platform/commands/request-context';
import type { AppConfig } from '../../platform/config/app-config';
import { CommandGateway } from '../../platform/commands/command-gateway';
import { APP_CONFIG, EVENT_STORE } from '../../platform/tokens';
import { comparePositions, START, type EventStore } from '../../platform/event-store/event-store.port';
import { CreatePasswordPolicyCommand } from '../policies/commands/create-password-policy.handler';
import { CreateOrganizationCommand } from '../organizations/commands/create-organization.handler';
import { CreateRoleCommand } from '../organizations/commands/create-role.handler';
import { SetAccountRoleCommand } from '../organizations/commands/set-account-role.handler';

/**
 * First start with an empty store: create the default password policy, the top-level organization
 * (ROLLCALL_ORGANIZATION_TITLE), its `administrator` role and the first administrator as its member
 * holding that role (all protected, so they cannot be deleted; docs/adr/0012). A store with any event is left alone, so a restart never adds a second one.
 * The password comes from ROLLCALL_ADMIN_PASSWORD, or is generated and printed once.
 */
@Injectable()
export class BootstrapAdminService {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gateway: CommandGateway,
  ) {}

  async run(print: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<void> {
    if (comparePositions(await this.store.headPosition(), START) > 0) return;
    const context = systemContext();
    await this.gateway.execute(new CreatePasswordPolicyCommand({ title: 'Default policy', description: 'Created on first start with the recommended defaults', ...DEFAULT_PASSWORD_POLICY }, context));
    // the top-level organization the administrator belongs to (protected: it cannot be deleted)
    const organization = await this.gateway.execute<{ id: string }>(new CreateOrganizationCommand({ title: this.config.admin.organizationTitle, description: '', parent_id: null }, context, true));
    const generated = this.config.admin.password === undefined;
    const password = this.config.admin.password ?? randomBytes(18).toString('base64url');
    const administrator = await this.gateway.execute<{ id: string }>(
      new CreateAccountCommand(
        {
          first_name: 'Rollcall',
          last_name: 'Administrator',
          email: `${this.config.admin.username}@rollcall.invalid`,
          username: this.config.admin.username,
          password,
          organization: organization.value.id,
          policy_id: null,
          expires_at: null,
          no_password: false,
          activation: false,
          policy: false,
          expiry: false,
        },
        context,
        true,
      ),
    );
    // the protected `administrator` role of the first organization, held by the first administrator:
    // what authorization (docs/adr/0011) maps onto every system permission; it needs no permission of its own
    const role = await this.gateway.execute<{ id: string }>(
      new CreateRoleCommand({ organization_id: organization.value.id, title: 'Administrator', slug: 'administrator', description: 'Every system permission everywhere', permissions: [] }, context, true),
    );
    await this.gateway.execute(new SetAccountRoleCommand(administrator.value.id, role.value.id, organization.value.id, true, context));
    this.logger.log(`created the first administrator '${this.config.admin.username}'`);
    if (generated) {
      print('');
      print('  First administrator created. Sign in with:');
      print(`    username: ${this.config.admin.username}`);
      print(`    password: ${password}`);
      print('  This password is shown once. Change it after signing in.');
      print('');
    }
  }
}
