import { Inject, Injectable } from '@nestjs/common';
import type { ErrorCode, SystemPermission } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { holdsAnywhere, isFullyWithin, isWithin, scopeOf, visibleOrganizations, type Grants, type Scope } from '../../platform/access/grants';
import type { AccessChecks } from '../../platform/access/caller-access';
import type { Principal } from '../../platform/access/principal';
import { expandSubtrees, isSuperAdministrator } from './queries/load-grants';
import { idsAt, valueAt, type IdLocation, type RequestParts, type ResourceKind, type ResourceRequirement } from '../../platform/access/resource-requirements';

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
export class AccessPolicy implements AccessChecks {
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
    const everywhereNeeded = () => new DomainError('auth.forbidden', `This call needs the permission ${permission} everywhere; it is held only within some organizations`);
    if (requirements.some((requirement) => requirement.kind === 'everywhere')) throw everywhereNeeded();
    const targets = requirements.flatMap((requirement) => {
      switch (requirement.kind) {
        case 'account-fully-within-scope':
          return idsAt(request, requirement.at).map((id) => ({ kind: requirement.resource, id, fully: true }));
        case 'organization-move':
        case 'organization-deletion':
          return idsAt(request, requirement.organization).map((id) => ({ kind: 'organization' as const, id, fully: false }));
        case 'everywhere':
          return [];
        default:
          return idsAt(request, requirement.at).map((id) => ({ kind: requirement.kind, id, fully: false }));
      }
    });
    if (targets.length === 0) throw everywhereNeeded();
    const visible = visibleOrganizations(grants);
    for (const { kind, id, fully } of targets) {
      const organizations = await this.organizationsOf(kind, id);
      if (organizations === null || !isWithin(visible, organizations)) throw new DomainError(...NOT_FOUND[kind]);
      // acting on one's own account never reaches beyond one's own grants
      if (fully && !(kind === 'account' && id === principal.accountId)) {
        if (!isFullyWithin(scope, organizations)) {
          if (kind === 'team') throw new DomainError('auth.forbidden', `This team spans organizations where the permission ${permission} is not held: only its members here may be changed`);
          throw new DomainError('auth.forbidden', `This account also belongs to organizations where the permission ${permission} is not held: only its membership and roles here may be changed`);
        }
      } else if (!isWithin(scope, organizations)) {
        throw new DomainError('auth.forbidden', `The permission ${permission} is not held in the organization this ${kind} belongs to`);
      }
    }
    for (const requirement of requirements) {
      if (requirement.kind === 'organization-move') await this.authorizeMove(permission, scope, visible, requirement, request);
      if (requirement.kind === 'organization-deletion') await this.authorizeDeletion(grants, requirement, request);
    }
  }

  /**
   * Moving an organization needs the permission where it leaves and where it lands; the top level
   * belongs to the root (docs/adr/0011). Sending the parent it already has is no move.
   */
  private async authorizeMove(permission: SystemPermission, scope: ReadonlySet<string>, visible: Scope, requirement: Extract<ResourceRequirement, { kind: 'organization-move' }>, request: RequestParts): Promise<void> {
    const [organizationId] = idsAt(request, requirement.organization);
    const parent = valueAt(request, requirement.parent);
    // absent: no move; anything but an id, null or '' is refused by the input's schema
    if (!organizationId || parent === undefined || !(parent === null || typeof parent === 'string' || typeof parent === 'number')) return;
    const landing = parent === null || parent === '' ? null : String(parent);
    const row = await this.db.selectFrom('organizations_v1').select('parent_id').where('id', '=', organizationId).executeTakeFirst();
    if (!row || (row.parent_id ?? null) === landing) return;
    if (row.parent_id === null) throw new DomainError('auth.forbidden', `Moving a top-level organization needs the permission ${permission} everywhere`);
    if (!scope.has(row.parent_id)) throw new DomainError('auth.forbidden', `Moving this organization needs the permission ${permission} where it leaves (its parent organization)`);
    if (landing === null) throw new DomainError('auth.forbidden', `The top level belongs to the root: moving an organization there needs the permission ${permission} everywhere`);
    if (!isWithin(visible, [landing]) || !(await this.organizationsOf('organization', landing))) throw new DomainError(...NOT_FOUND.organization);
    if (!scope.has(landing)) throw new DomainError('auth.forbidden', `Moving this organization needs the permission ${permission} where it lands`);
  }

  /**
   * Deleting an organization must not do what its administrator may not do directly: send its
   * sub-organizations to the top level (the root's), or delete accounts that also belong elsewhere.
   */
  private async authorizeDeletion(grants: Grants, requirement: Extract<ResourceRequirement, { kind: 'organization-deletion' }>, request: RequestParts): Promise<void> {
    const [organizationId] = idsAt(request, requirement.organization);
    if (!organizationId) return;
    const choice = (at: IdLocation) => {
      const value = valueAt(request, at);
      return value === undefined || value === null || value === '' ? 'disconnect' : value;
    };
    const suborganizations = choice(requirement.suborganizations);
    if (suborganizations === 'disconnect') {
      const child = await this.db.selectFrom('organizations_v1').select('id').where('parent_id', '=', organizationId).executeTakeFirst();
      if (child) throw new DomainError('auth.forbidden', 'The top level belongs to the root: move or delete the sub-organizations with this organization instead of disconnecting them');
    }
    if (choice(requirement.accounts) !== 'delete') return;
    const deleting = suborganizations === 'delete' ? ((await expandSubtrees(this.db, [organizationId])).get(organizationId) ?? [organizationId]) : [organizationId];
    const scope = scopeOf(grants, 'accounts:delete');
    if (scope === 'everywhere') return;
    const members = await this.db.selectFrom('organization_members_v1').select('account_id').distinct().where('organization_id', 'in', deleting).execute();
    for (const { account_id } of members) {
      const organizations = await this.organizationsOf('account', account_id);
      if (!organizations || !isFullyWithin(scope, organizations)) {
        throw new DomainError('auth.forbidden', 'Some accounts of this organization also belong to organizations where accounts:delete is not held: let them leave instead of deleting them');
      }
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
