import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventStore, NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { PersonalDataVault, SEALED_FIELD } from './personal-data-vault';
import { SqlitePersonalDataKeys } from './sqlite-personal-data-keys';

const metadata = () => ({ eventId: randomUUID(), actor: 'system', actorKind: 'system' as const, sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() });
const created = (accountId: string, firstName: string): NewEvent => ({
  type: 'AccountCreated',
  data: { accountId, username: `user.${firstName}`, email: `${firstName}@example.com`, firstName, lastName: 'Canary', passwordHash: null, statusId: 1 },
  metadata: metadata(),
});
const erased = (accountId: string): NewEvent => ({ type: 'AccountPersonalDataErased', data: { accountId, erasedAt: new Date().toISOString() }, metadata: metadata() });

/** The vault over the real SQLite adapter and key table (docs/adr/0015). */
describe('personal data vault', () => {
  let dir: string;
  let stores: EventStore[];
  const open = () => {
    const file = join(dir, 'events.db');
    const store = new PersonalDataVault(new SqliteEventStore(file), new SqlitePersonalDataKeys(file));
    stores.push(store);
    return { store, raw: new SqliteEventStore(file) };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rollcall-vault-'));
    stores = [];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the personal fields sealed and serves them opened', async () => {
    const { store, raw } = open();
    stores.push(raw);
    const id = randomUUID();
    await store.appendToStream(`account-${id}`, [created(id, 'Zorblat')], { expectedVersion: 'no_stream' });
    const [stored] = await raw.readStream(`account-${id}`);
    const data = stored.data as Record<string, unknown>;
    expect(data).not.toHaveProperty('firstName');
    expect(data.statusId).toBe(1);
    expect(typeof data[SEALED_FIELD]).toBe('string');
    expect(JSON.stringify(data)).not.toContain('Zorblat');
    expect((await store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Zorblat', lastName: 'Canary', email: 'Zorblat@example.com', username: 'user.Zorblat', statusId: 1 });
    expect((await store.readAll({ commit: 0, sequence: 0 }, 10))[0].data).toMatchObject({ firstName: 'Zorblat' });
  });

  it('opens each stream of a read of several streams, an erased one as erased', async () => {
    const { store, raw } = open();
    stores.push(raw);
    const [kept, gone] = [randomUUID(), randomUUID()];
    await store.appendToStream(`account-${kept}`, [created(kept, 'Keepme')], { expectedVersion: 'no_stream' });
    await store.appendToStream(`account-${gone}`, [created(gone, 'Zorblat'), erased(gone)], { expectedVersion: 'no_stream' });
    const [first, nobody, second] = await store.readStreams([{ streamId: `account-${kept}` }, { streamId: 'account-nobody' }, { streamId: `account-${gone}` }]);
    expect(first.map((event) => event.data)).toEqual([expect.objectContaining({ firstName: 'Keepme', lastName: 'Canary' })]);
    expect(nobody).toEqual([]);
    expect(second.map((event) => event.type)).toEqual(['AccountCreated', 'AccountPersonalDataErased']);
    expect(second[0].data).toMatchObject({ firstName: 'Erased', username: `erased-${gone}` });
  });

  it('reads an erased account as an erased person everywhere, in another process too, and refuses new personal data for it', async () => {
    const first = open();
    const second = open();
    stores.push(first.raw, second.raw);
    const id = randomUUID();
    const other = randomUUID();
    await first.store.appendToStream(`account-${id}`, [created(id, 'Zorblat')], { expectedVersion: 'no_stream' });
    await first.store.appendToStream(`account-${other}`, [created(other, 'Keepme')], { expectedVersion: 'no_stream' });
    // the second process has the key in memory before the erasure
    expect((await second.store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Zorblat' });

    await first.store.appendToStream(`account-${id}`, [erased(id)], { expectedVersion: 0 });
    expect((await first.store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Erased', lastName: 'person', username: `erased-${id}` });
    // in log order the second process meets the erasure after the creation; a later read is erased
    const seen = await second.store.readAll({ commit: 0, sequence: 0 }, 10);
    expect(seen.map((event) => event.type)).toEqual(['AccountCreated', 'AccountCreated', 'AccountPersonalDataErased']);
    expect((await second.store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Erased' });
    // nobody else is touched
    expect((await second.store.readStream(`account-${other}`))[0].data).toMatchObject({ firstName: 'Keepme' });

    await expect(first.store.appendToStream(`account-${id}`, [{ type: 'AccountProfilePictureChanged', data: { accountId: id, picture: null, changedAt: 't' }, metadata: metadata() }], { expectedVersion: 1 })).rejects.toMatchObject({ code: 'account.erased' });
    // the file keeps no copy of the key's plaintext data: the names never were in it
    await first.store.close();
    await second.store.close();
    stores = [first.raw, second.raw];
    const bytes = readFileSync(join(dir, 'events.db'));
    expect(bytes.includes('Zorblat')).toBe(false);
    expect(bytes.includes('Keepme')).toBe(false);
  });

  it('reads as erased an event stored in clear before the vault, once its account is erased', async () => {
    const { store, raw } = open();
    stores.push(raw);
    const id = randomUUID();
    await raw.appendToStream(`account-${id}`, [created(id, 'Legacy')], { expectedVersion: 'no_stream' });
    expect((await store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Legacy' });
    await store.appendToStream(`account-${id}`, [erased(id)], { expectedVersion: 0 });
    expect((await store.readStream(`account-${id}`))[0].data).toMatchObject({ firstName: 'Erased' });
  });

  it('refuses to open a sealed blob moved to another account', async () => {
    const { store, raw } = open();
    stores.push(raw);
    const id = randomUUID();
    const thief = randomUUID();
    await store.appendToStream(`account-${id}`, [created(id, 'Zorblat')], { expectedVersion: 'no_stream' });
    await store.appendToStream(`account-${thief}`, [created(thief, 'Thief')], { expectedVersion: 'no_stream' });
    const [original] = await raw.readStream(`account-${id}`);
    const moved = { ...(original.data as Record<string, unknown>), accountId: thief };
    await raw.appendToStream(`account-${thief}`, [{ type: 'AccountCreated', data: moved, metadata: metadata() }], { expectedVersion: 0 });
    await expect(store.readStream(`account-${thief}`)).rejects.toThrow(/unable to authenticate|auth/i);
  });
});
