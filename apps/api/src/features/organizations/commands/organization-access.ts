import { DomainError, organizationDecider, organizationStream, type OrganizationAccessCommand, type OrganizationAccessState, type OrganizationEvent } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, loadStream } from '../../../platform/commands/multi-stream';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { Position } from '../../../platform/event-store/event-store.port';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export interface AccessDecision {
  position: Position;
  /** the organization's permissions and roles the decision was taken on */
  before: OrganizationAccessState;
  events: OrganizationEvent[];
}

/**
 * The one write path of permissions and roles: they live in the organization's stream (docs/adr/0012),
 * so a slug is unique within the organization by the stream's own optimistic concurrency. The
 * command is built from the decision's time; a concurrent change of the same organization decides again
 * on the fresh stream. A missing or deleted organization is 404 organization.not_found.
 */
export function decideOnOrganization(
  store: EventStore,
  clock: Clock,
  context: RequestContext,
  organizationId: string,
  command: (at: string) => OrganizationAccessCommand,
): Promise<AccessDecision> {
  return retryingOnConflict(async () => {
    const organization = await loadStream(store, organizationDecider, organizationStream(organizationId));
    const events = organizationDecider.decide(command(clock.now().toISOString()), organization.state);
    const position = await appendDecision(store, clock, context, [{ stream: organization, events }]);
    const before = organization.state.status === 'active' ? organization.state.access : { permissions: {}, roles: {} };
    return { position, before, events };
  });
}

export const roleNotFound = () => new DomainError('role.not_found', 'Role not found');
export const permissionNotFound = () => new DomainError('permission.not_found', 'Permission not found');

/**
 * The organization of a role named only by its id (`role/{id}/...`), from the read model; the decision
 * itself is then taken on the organization's stream, which has the last word.
 */
export async function organizationOfRole(db: Kysely<ReadDatabase>, roleId: string): Promise<string> {
  const row = await db.selectFrom('organization_roles_v1').select('organization_id').where('id', '=', roleId).executeTakeFirst();
  if (!row) throw roleNotFound();
  return row.organization_id;
}

/** The organization of a permission named only by its id (`permission/{id}/...`), from the read model. */
export async function organizationOfPermission(db: Kysely<ReadDatabase>, permissionId: string): Promise<string> {
  const row = await db.selectFrom('organization_permissions_v1').select('organization_id').where('id', '=', permissionId).executeTakeFirst();
  if (!row) throw permissionNotFound();
  return row.organization_id;
}
