import { createHash, randomBytes } from 'node:crypto';
import { applicationDecider, applicationStream, DomainError, type ApplicationCommand, type ApplicationEvent, type ApplicationState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, loadStream } from '../../../platform/commands/multi-stream';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore, Position } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export interface ApplicationDecision {
  position: Position;
  /** the application the decision was taken on */
  before: ApplicationState;
  events: ApplicationEvent[];
}

/**
 * The one write path of an application (docs/adr/0014): its stream holds its own facts, its client
 * settings, permissions and roles, so slugs are unique within it by the stream's optimistic
 * concurrency. The command is built from the state and the decision's time; a concurrent change of
 * the same application decides again on the fresh stream.
 */
export function decideOnApplication(
  store: EventStore,
  clock: Clock,
  context: RequestContext,
  applicationId: string,
  command: (at: string, state: ApplicationState) => ApplicationCommand,
): Promise<ApplicationDecision> {
  return retryingOnConflict(async () => {
    const application = await loadStream(store, applicationDecider, applicationStream(applicationId));
    const events = applicationDecider.decide(command(clock.now().toISOString(), application.state), application.state);
    const position = await appendDecision(store, clock, context, [{ stream: application, events }]);
    return { position, before: application.state, events };
  });
}

/** A fresh client secret (256 random bits, base64url) and what the events keep of it: its SHA-256 (hex). */
export function newClientSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: createHash('sha256').update(secret).digest('hex') };
}

/** The clear secret to show once, when the decision issued one. */
export interface IssuedSecret {
  client_secret: string;
  issued_at: string;
}

export function issuedSecret(events: ApplicationEvent[], secret: string): IssuedSecret | null {
  const issued = events.find((event) => event.type === 'ApplicationClientSecretIssued');
  return issued && issued.type === 'ApplicationClientSecretIssued' ? { client_secret: secret, issued_at: issued.data.issuedAt } : null;
}

export const relationNotFound = () => new DomainError('application.relation_not_found', 'This permission is not switched on for that role (unknown relation id)');

/**
 * The application of a permission or role named only by its id (`application/permission/{id}`,
 * `application/role/{id}`), from the read model; the decision itself is then taken on the
 * application's stream, which has the last word.
 */
export async function applicationOfPermission(db: Kysely<ReadDatabase>, permissionId: string): Promise<string> {
  const row = await db.selectFrom('application_permissions_v1').select('application_id').where('id', '=', permissionId).executeTakeFirst();
  if (!row) throw new DomainError('permission.not_found', 'Permission not found');
  return row.application_id;
}

export async function applicationOfRole(db: Kysely<ReadDatabase>, roleId: string): Promise<string> {
  const row = await db.selectFrom('application_roles_v1').select('application_id').where('id', '=', roleId).executeTakeFirst();
  if (!row) throw new DomainError('role.not_found', 'Role not found');
  return row.application_id;
}

/** The application of a live role-permission relation (`application/role/remove-permission/{id}`). */
export async function applicationOfRelation(db: Kysely<ReadDatabase>, relationId: string): Promise<string> {
  const row = await db.selectFrom('application_role_permissions_v1').select('application_id').where('id', '=', relationId).executeTakeFirst();
  if (!row) throw relationNotFound();
  return row.application_id;
}
