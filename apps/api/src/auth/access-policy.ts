import { Inject, Injectable } from '@nestjs/common';
import type { ErrorCode, SystemPermission } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../core/tokens';
import type { ReadDatabase } from '../read-db/read-database';
import { holdsAnywhere, isWithin, scopeOf, visibleOrganizations } from './grants';
import type { Principal } from './principal';
import { isSuperAdministrator } from './queries/load-grants';
import { idsAt, type RequestParts, type ResourceKind, type ResourceRequirement } from './resource-requirements';

const NOT_FOUND: Record<ResourceKind, [ErrorCode, string]> = {
  account: ['account.not_found', 'Account not found'],
  organization: ['organization.not_found', 'Organization not found'],
  team: ['team.not_found', 'Team not found'],
  token: ['token.not_found', 'This access token does not exist or was deleted'],
  role: ['role.not_found', 'Role not found'],
  permission: ['permission.not_found', 'Permission not found'],
};

/**
 * Who may do what, in one place (docs/adr/0011), for REST v1 and v2 (AuthGuard), tRPC
 * (permittedProcedure) and WebSocket subscriptions alike:
 * - a principal without the permission anywhere gets 403;
 * - one holding it everywhere (the super administrator) passes;
 * - one holding it within organizations passes for a resource that belongs to one of them; a resource
 *   outside everything it may see answers 404 (nothing leaks about what exists elsewhere), one it may
 *   see but not change 403; a call on no resource in particular (a list) passes and the list is
 *   filtered by the query; a call on what belongs to no organization needs the permission everywhere.
 */
@Injectable()
export class AccessPolicy {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async authorize(principal: Principal, permission: SystemPermission | undefined, requirements: readonly ResourceRequirement[], request: RequestParts): Promise<void> {
    if (!permission) {
      if (principal.kind !== 'session') throw new DomainError('auth.forbidden', 'This call needs a signed-in session: access tokens cannot make it');
      return;
    }
    const grants = principal.grants;
    if (!holdsAnywhere(grants, permission)) throw new DomainError('auth.forbidden', principal.kind === 'session' ? `This account lacks the permission ${permission}` : `This access token lacks the permission ${permission}`);
    const scope = scopeOf(grants, permission);
    if (scope === 'everywhere' || requirements.length === 0) return;
    const targets = requirements.flatMap((requirement) => (requirement.kind === 'everywhere' ? [] : idsAt(request, requirement.at).map((id) => ({ kind: requirement.kind, id }))));
    if (targets.length === 0 || requirements.some((requirement) => requirement.kind === 'everywhere')) {
      throw new DomainError('auth.forbidden', `This call needs the permission ${permission} everywhere; it is held only within some organizations`);
    }
    for (const { kind, id } of targets) {
      const organizations = await this.organizationsOf(kind, id);
      if (organizations === null || !isWithin(visibleOrganizations(grants), organizations)) throw new DomainError(...NOT_FOUND[kind]);
      if (!isWithin(scope, organizations)) throw new DomainError('auth.forbidden', `The permission ${permission} is not held in the organization this ${kind} belongs to`);
    }
  }

  /** The same verdict for one resource, as a yes or no: what a WebSocket topic pushes to whom. */
  async permits(principal: Principal, permission: SystemPermission, kind: ResourceKind, id: string): Promise<boolean> {
    const scope = scopeOf(principal.grants, permission);
    if (scope === 'everywhere') return true;
    const organizations = await this.organizationsOf(kind, id);
    return organizations !== null && isWithin(scope, organizations);
  }

  /**
   * The organizations a resource belongs to (null: it does not exist). A super administrator's account
   * belongs to none here: only a super administrator may act on it.
   */
  private async organizationsOf(kind: ResourceKind, id: string): Promise<string[] | null> {
    switch (kind) {
      case 'organization': {
        const row = await this.db.selectFrom('organizations_v1').select('id').where('id', '=', id).executeTakeFirst();
        return row ? [row.id] : null;
      }
      case 'account': {
        const row = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', id).executeTakeFirst();
        if (!row) return null;
        if (await isSuperAdministrator(this.db, id)) return [];
        return this.membershipsOf([id]);
      }
      case 'team': {
        const row = await this.db.selectFrom('teams_v1').select('organization_id').where('id', '=', id).executeTakeFirst();
        if (!row) return null;
        if (row.organization_id) return [row.organization_id];
        // a multi-organization team belongs to the organizations of its members (docs/adr/0011)
        const members = await this.db.selectFrom('team_members_v1').select('account_id').where('team_id', '=', id).execute();
        return this.membershipsOf(members.map((member) => member.account_id));
      }
      case 'token': {
        const row = await this.db.selectFrom('access_tokens_v1').select('account_id').where('id', '=', id).executeTakeFirst();
        return row ? this.organizationsOf('account', row.account_id) : null;
      }
      case 'role': {
        const row = await this.db.selectFrom('organization_roles_v1').select('organization_id').where('id', '=', id).executeTakeFirst();
        return row ? [row.organization_id] : null;
      }
      case 'permission': {
        const row = await this.db.selectFrom('organization_permissions_v1').select('organization_id').where('id', '=', id).executeTakeFirst();
        return row ? [row.organization_id] : null;
      }
    }
  }

  private async membershipsOf(accountIds: string[]): Promise<string[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.db.selectFrom('organization_members_v1').select('organization_id').distinct().where('account_id', 'in', accountIds).execute();
    return rows.map((row) => row.organization_id);
  }
}
