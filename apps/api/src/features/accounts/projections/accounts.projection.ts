import type { AccountCreatedData, AccountEvent } from '@rollcall/domain';
import { ACCOUNT_EVENT_TYPES, ACTIVE, PASSWORD_CHANGE_REQUIRED } from '@rollcall/domain';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import { insertRowsIgnoringConflicts } from '../../../platform/read-db/bulk-insert';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { AccountTable } from '../accounts.tables';

/**
 * accounts_v2: one row per account, what lists, search, auth info and sessions read. v2 added
 * `password_changed_at` (password aging) and follows status, policy and password changes; the v1
 * tables are left behind and v2 is rebuilt from the events on first start.
 */
export class AccountsProjection implements Projection {
  readonly name = 'accounts_v2';
  readonly eventTypes = ACCOUNT_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('accounts_v2')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lower', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('status_id', 'integer', (c) => c.notNull())
      .addColumn('policy_id', 'text')
      .addColumn('organization_id', 'text')
      .addColumn('is_protected', 'integer', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_login_at', 'text')
      .addColumn('password_changed_at', 'text')
      .addColumn('additional', 'text', (c) => c.notNull())
      .addColumn('position_commit', 'bigint', (c) => c.notNull())
      .addColumn('position_sequence', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('account_status_counts_v2')
      .ifNotExists()
      .addColumn('status_id', 'integer', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    // v1 had no password_changed_at and did not follow status changes; v2 rebuilds from the events
    await db.schema.dropTable('accounts_v1').ifExists().execute();
    await db.schema.dropTable('account_status_counts_v1').ifExists().execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // sign-in looks accounts up by lower-cased username
    await db.schema.createIndex('accounts_v2_username_lower').ifNotExists().unique().on('accounts_v2').column('username_lower').execute();
    // Each index serves a sort of the list (newest first is the default) or a lookup.
    for (const column of ['created_at', 'status_id', 'last_name', 'email_lower'] as const) {
      await db.schema.createIndex(`accounts_v2_${column}`).ifNotExists().on('accounts_v2').columns([column, 'id']).execute();
    }
    // policy lists count the accounts per policy, and deleting a policy checks that none uses it
    await db.schema.createIndex('accounts_v2_policy_id').ifNotExists().on('accounts_v2').column('policy_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('accounts_v2').ifExists().execute();
    await db.schema.dropTable('account_status_counts_v2').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    await this.applyBatch(trx, [stored]);
  }

  /**
   * Creations in a batch become multi-row inserts; sign-ins of accounts created in the same batch are
   * folded into those rows before they are written, the others become updates. Any other event
   * first writes what is pending, then applies itself, so every row sees its events in order.
   */
  async applyBatch(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void> {
    const created = new Map<string, Insertable<AccountTable>>();
    const lastLogins = new Map<string, { at: string; position: Position }>();
    const flush = async () => {
      if (!created.size && !lastLogins.size) return;
      // replaying an already applied event changes nothing (ON CONFLICT DO NOTHING)
      await insertRowsIgnoringConflicts(trx, 'accounts_v2', 'id', [...created.values()]);
      await addToStatusCounts(trx, created.values());
      for (const [accountId, { at, position }] of lastLogins) {
        await trx.updateTable('accounts_v2').set({ last_login_at: at, ...position }).where('id', '=', accountId).execute();
      }
      created.clear();
      lastLogins.clear();
    };
    for (const stored of events) {
      const event = { type: stored.type, data: stored.data } as AccountEvent;
      const position = { position_commit: stored.position.commit, position_sequence: stored.position.sequence };
      switch (event.type) {
        case 'AccountCreated':
          created.set(event.data.accountId, accountRow(event.data, position));
          break;
        case 'AccountSignedIn': {
          const row = created.get(event.data.accountId);
          if (row) Object.assign(row, { last_login_at: event.data.at, ...position });
          else lastLogins.set(event.data.accountId, { at: event.data.at, position });
          break;
        }
        case 'AccountProfileUpdated': {
          await flush();
          const d = event.data;
          await updateRow(trx, d.accountId, position, (row) => {
            const a = d.additional;
            const additional = {
              ...(JSON.parse(row.additional) as Record<string, unknown>),
              address: a.address,
              birth_date: a.birthDate,
              email: a.emails,
              gender: a.gender,
              locale: a.locale,
              middle_name: a.middleName,
              nickname: a.nickname,
              profile: a.profile,
              telephone: a.telephone,
              time_zone: a.timeZone,
              website: a.website,
            };
            return {
              first_name: d.firstName,
              last_name: d.lastName,
              email: d.email,
              email_lower: d.email.toLowerCase(),
              search_text: searchText(row.username, d.firstName, d.lastName, d.email),
              additional: JSON.stringify(additional),
            };
          });
          break;
        }
        case 'AccountProfilePictureChanged': {
          await flush();
          const { accountId, picture } = event.data;
          await updateRow(trx, accountId, position, (row) => ({ additional: JSON.stringify({ ...(JSON.parse(row.additional) as Record<string, unknown>), profilePicture: picture }) }));
          break;
        }
        case 'AccountStatusChanged': {
          await flush();
          await updateRow(trx, event.data.accountId, position, () => ({ status_id: event.data.statusId }));
          break;
        }
        case 'PasswordChangeRequired': {
          await flush();
          await updateRow(trx, event.data.accountId, position, () => ({ status_id: PASSWORD_CHANGE_REQUIRED }));
          break;
        }
        case 'AccountPolicyChanged': {
          await flush();
          await updateRow(trx, event.data.accountId, position, () => ({ policy_id: event.data.policyId }));
          break;
        }
        case 'PasswordChanged': {
          await flush();
          const { accountId, passwordHash, changedAt } = event.data;
          await updateRow(trx, accountId, position, (row) => ({
            password_hash: passwordHash,
            password_changed_at: changedAt,
            // the decider's rule: a new password ends 'password change required'
            ...(row.status_id === PASSWORD_CHANGE_REQUIRED ? { status_id: ACTIVE } : {}),
          }));
          break;
        }
        case 'SignInFailed':
        case 'AccountLocked':
          // sign-in reads the lock from the stream itself; nothing here shows it yet
          break;
        case 'AccountDeleted': {
          await flush();
          const removed = await trx.deleteFrom('accounts_v2').where('id', '=', event.data.accountId).returning('status_id').executeTakeFirst();
          if (removed) {
            await trx
              .updateTable('account_status_counts_v2')
              .set((eb) => ({ count: eb('count', '-', 1) }))
              .where('status_id', '=', removed.status_id)
              .execute();
          }
          break;
        }
      }
    }
    await flush();
  }
}

type Position = { position_commit: number; position_sequence: number };

/** Read-modify-write of one row, applied only when the event is newer than the row (replays are no-ops). */
async function updateRow(
  trx: Transaction<ReadDatabase>,
  accountId: string,
  position: Position,
  change: (row: { username: string; additional: string; status_id: number }) => Updateable<AccountTable>,
): Promise<void> {
  const row = await trx.selectFrom('accounts_v2').select(['username', 'additional', 'status_id', 'position_commit', 'position_sequence']).where('id', '=', accountId).executeTakeFirst();
  if (!row) return;
  const [commit, sequence] = [Number(row.position_commit), Number(row.position_sequence)];
  if (commit > position.position_commit || (commit === position.position_commit && sequence >= position.position_sequence)) return;
  const changes = change(row);
  await trx
    .updateTable('accounts_v2')
    .set({ ...changes, ...position })
    .where('id', '=', accountId)
    .execute();
  // the per-status totals follow a status change (lists read their totals from them)
  if (changes.status_id !== undefined && changes.status_id !== row.status_id) {
    await trx
      .updateTable('account_status_counts_v2')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('status_id', '=', row.status_id)
      .execute();
    await addToStatusCounts(trx, [{ status_id: changes.status_id as number }]);
  }
}

const searchText = (username: string, firstName: string, lastName: string, email: string) => [username, firstName, lastName, email].join(' ').toLowerCase();

async function addToStatusCounts(trx: Transaction<ReadDatabase>, rows: Iterable<{ status_id: number }>): Promise<void> {
  const added = new Map<number, number>();
  for (const row of rows) added.set(row.status_id, (added.get(row.status_id) ?? 0) + 1);
  for (const [statusId, count] of added) {
    await trx
      .insertInto('account_status_counts_v2')
      .values({ status_id: statusId, count })
      .onConflict((oc) => oc.column('status_id').doUpdateSet((eb) => ({ count: eb('account_status_counts_v2.count', '+', count) })))
      .execute();
  }
}

function accountRow(d: AccountCreatedData, position: { position_commit: number; position_sequence: number }): Insertable<AccountTable> {
  return {
    id: d.accountId,
    username: d.username,
    username_lower: d.username.toLowerCase(),
    email: d.email,
    email_lower: d.email.toLowerCase(),
    first_name: d.firstName,
    last_name: d.lastName,
    search_text: searchText(d.username, d.firstName, d.lastName, d.email),
    status_id: d.statusId,
    policy_id: d.policyId,
    organization_id: d.organizationId,
    is_protected: d.isProtected ? 1 : 0,
    password_hash: d.passwordHash,
    expires_at: d.expiresAt,
    created_at: d.createdAt,
    last_login_at: null,
    password_changed_at: d.createdAt,
    additional: JSON.stringify({ email: [{ value: d.email, type: 'work' }], telephone: [] }),
    ...position,
  };
}
