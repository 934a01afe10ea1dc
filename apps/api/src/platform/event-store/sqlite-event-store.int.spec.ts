import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import ts from 'typescript';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventStoreContract, eventually, readEverything, sleep, testEvent } from './event-store.contract';
import { EventStoreUnavailableError, START, type StoredEvent, WrongExpectedVersionError } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rollcall-es-'));
  tempDirs.push(dir);
  return dir;
}

eventStoreContract('sqlite', async () => {
  const dir = tempDir();
  const store = new SqliteEventStore(join(dir, 'events.db'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteEventStore', () => {
  let dir: string;
  let file: string;
  const opened: SqliteEventStore[] = [];
  const open = (options?: ConstructorParameters<typeof SqliteEventStore>[1]) => {
    const store = new SqliteEventStore(file, options);
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    dir = tempDir();
    file = join(dir, 'events.db');
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the file in WAL mode', () => {
    open();
    const peek = new Database(file, { readonly: true });
    try {
      expect(peek.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      peek.close();
    }
  });

  it('group-commits 500 concurrent appends in fewer transactions than appends', async () => {
    const store = open();
    const before = store.stats().transactions;
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        store.appendToStream(i % 2 === 0 ? `own-${i}` : 'shared', [testEvent('Scanned', { i })], {
          expectedVersion: i % 2 === 0 ? 'no_stream' : 'any',
        }),
      ),
    );
    const transactions = store.stats().transactions - before;
    expect(results).toHaveLength(500);
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThan(500);
    expect(store.stats().appends).toBe(500);
    const log = await readEverything(store);
    expect(log).toHaveLength(500);
    expect(new Set(results.map((r) => r.position.sequence)).size).toBe(500);
    expect((await store.readStream('shared')).map((e) => e.streamVersion)).toEqual(Array.from({ length: 250 }, (_, v) => v));
  });

  it('a rejected append in a batch rolls back alone; the rest of the batch commits', async () => {
    const store = open();
    await store.appendToStream('s', [testEvent('Created')], { expectedVersion: 'no_stream' });
    const before = store.stats().transactions;
    const results = await Promise.allSettled([
      store.appendToStream('a', [testEvent('A')], { expectedVersion: 'no_stream' }),
      store.appendToStream('s', [testEvent('Stale')], { expectedVersion: 5 }),
      store.appendToStream('b', [testEvent('B')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'x' }] }),
      store.appendToStream('c', [testEvent('C')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'x' }] }),
      store.appendToStream('s', [testEvent('Next')], { expectedVersion: 0 }),
      // takes y, then fails on x: its savepoint must give y back before the next append asks for it
      store.appendToStream('d', [testEvent('D')], {
        expectedVersion: 'no_stream',
        reservations: [{ scope: 'u', value: 'y' }, { scope: 'u', value: 'x' }],
      }),
      store.appendToStream('e', [testEvent('E')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'y' }] }),
    ]);
    expect(store.stats().transactions - before).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((await readEverything(store)).map((e) => e.type)).toEqual(['Created', 'A', 'B', 'Next', 'E']);
  });

  it('a multi-stream append is one unit of its batch: its failure rolls back all of its streams and nothing else', async () => {
    const store = open();
    await store.appendToStream('s', [testEvent('Created')], { expectedVersion: 'no_stream' });
    const before = store.stats();
    const results = await Promise.allSettled([
      store.appendToStream('a', [testEvent('A')], { expectedVersion: 'no_stream' }),
      // takes y and appends to m1 and m2, then fails on s: all of it goes, y included
      store.appendToStreams([
        { streamId: 'm1', events: [testEvent('M1')], options: { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'y' }] } },
        { streamId: 'm2', events: [testEvent('M2'), testEvent('M2')], options: { expectedVersion: 'no_stream' } },
        { streamId: 's', events: [testEvent('Stale')], options: { expectedVersion: 5 } },
      ]),
      store.appendToStream('b', [testEvent('B')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'y' }] }),
      store.appendToStreams([
        { streamId: 'm1', events: [testEvent('M1')], options: { expectedVersion: 'no_stream' } },
        { streamId: 's', events: [testEvent('Next')], options: { expectedVersion: 0 } },
      ]),
      store.appendToStream('m2', [testEvent('M2')], { expectedVersion: 'no_stream' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ name: 'WrongExpectedVersionError', streamId: 's' });
    const stats = store.stats();
    expect(stats.transactions - before.transactions).toBe(1);
    expect(stats.appends - before.appends).toBe(4); // a call counts once, whatever its streams
    expect((await readEverything(store)).map((e) => `${e.streamId}:${e.type}`)).toEqual([
      's:Created',
      'a:A',
      'b:B',
      'm1:M1',
      's:Next',
      'm2:M2',
    ]);
  });

  it('when the batch transaction fails, every caller of the batch gets EventStoreUnavailableError and nothing is written', async () => {
    const store = open({ busyTimeoutMs: 50 });
    await store.appendToStream('s', [testEvent('Created')], { expectedVersion: 'no_stream' });
    // Another connection holds the write lock past our busy timeout: the batch cannot begin.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const results = await Promise.allSettled([
        store.appendToStream('s', [testEvent('A')], { expectedVersion: 0 }),
        store.appendToStream('s', [testEvent('B')], { expectedVersion: 7 }), // would be a conflict: still "unavailable"
        store.appendToStream('t', [testEvent('C')], { expectedVersion: 'no_stream' }),
        store.appendToStreams([
          { streamId: 'u', events: [testEvent('D')], options: { expectedVersion: 'no_stream' } },
          { streamId: 's', events: [testEvent('E')], options: { expectedVersion: 0 } },
        ]),
      ]);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason).toBeInstanceOf(EventStoreUnavailableError);
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await readEverything(store)).map((e) => e.type)).toEqual(['Created']);
    await store.appendToStream('s', [testEvent('A')], { expectedVersion: 0 });
  });

  it('keeps everything across close and reopen; positions keep growing', async () => {
    const first = open();
    const a = await first.appendToStream('s', [testEvent('A'), testEvent('B')], {
      expectedVersion: 'no_stream',
      reservations: [{ scope: 'u', value: 'x' }],
      idempotencyKey: 'k1',
    });
    await first.close();
    const second = open();
    expect((await second.readStream('s')).map((e) => e.type)).toEqual(['A', 'B']);
    expect(await second.headPosition()).toEqual(a.position);
    expect(await second.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream', idempotencyKey: 'k1' })).toEqual({
      ...a,
      duplicate: true,
    });
    await expect(second.appendToStream('s', [testEvent('C')], { expectedVersion: 0 })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );
    const c = await second.appendToStream('s', [testEvent('C')], { expectedVersion: 1 });
    expect(c.position.sequence).toBeGreaterThan(a.position.sequence);
  });

  it('a subscription sees appends made through another connection to the same file (polling)', async () => {
    const reader = open({ pollIntervalMs: 20 });
    const writer = open();
    const received: StoredEvent[] = [];
    const subscription = reader.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
    for (let i = 0; i < 30; i++) {
      await (i % 3 === 0 ? reader : writer).appendToStream('s', [testEvent('E', { i })], { expectedVersion: 'any' });
      if (i % 10 === 0) await sleep(5);
    }
    await eventually(() => received.length >= 30, '30 events from both connections');
    await subscription.stop();
    expect(received.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('another process appending to the same file at the same time: both commit, a subscriber sees every event once', async () => {
    const childDir = tempDir();
    compileForChild(childDir);
    const store = open({ pollIntervalMs: 20 });
    const received: StoredEvent[] = [];
    const subscription = store.subscribeToAll({ from: START, batchSize: 50, onEvents: (events) => void received.push(...events) });

    const child = runChild(childDir, file, 200);
    const mine = (async () => {
      for (let i = 0; i < 100; i++) {
        await Promise.all([
          store.appendToStream('parent', [testEvent('Parent', { i })], { expectedVersion: 'any' }),
          store.appendToStream(`parent-${i}`, [testEvent('Parent', { i })], { expectedVersion: 'no_stream' }),
        ]);
      }
    })();
    await Promise.all([child, mine]);

    await eventually(() => received.length >= 400, '400 events from two processes');
    await sleep(100);
    await subscription.stop();
    const log = await readEverything(store);
    expect(received.map((e) => e.position)).toEqual(log.map((e) => e.position));
    expect(log).toHaveLength(400);
    expect((await store.readStream('child')).map((e) => e.streamVersion)).toEqual(Array.from({ length: 200 }, (_, v) => v));
    expect((await store.readStream('parent')).map((e) => e.streamVersion)).toEqual(Array.from({ length: 100 }, (_, v) => v));
  });
});

/**
 * The child process runs the adapter's own code. Node 20 cannot run TypeScript, and vitest's transform
 * only exists inside this process, so the three source files are transpiled to CommonJS next to a tiny
 * driver script.
 */
function compileForChild(dir: string): void {
  for (const name of ['event-store.port', 'polling-subscription', 'sqlite-event-store']) {
    const source = readFileSync(resolve(__dirname, `${name}.ts`), 'utf8');
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    writeFileSync(join(dir, `${name}.js`), output.outputText);
  }
  writeFileSync(
    join(dir, 'child.js'),
    `
const { SqliteEventStore } = require('./sqlite-event-store.js');
const [file, count] = process.argv.slice(2);
const store = new SqliteEventStore(file);
const metadata = { eventId: '', actor: 'child', actorKind: 'system', sourceIp: null, correlationId: 'c', causationId: null, occurredAt: new Date().toISOString() };
(async () => {
  for (let i = 0; i < Number(count); i++) {
    await store.appendToStream('child', [{ type: 'Child', data: { i }, metadata: { ...metadata, eventId: 'child-' + i } }], { expectedVersion: i === 0 ? 'no_stream' : i - 1 });
  }
  await store.close();
})().catch((error) => { console.error(error); process.exit(1); });
`,
  );
}

function runChild(dir: string, file: string, count: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(dir, 'child.js'), file, String(count)], {
      env: { ...process.env, NODE_PATH: resolve(__dirname, '../../../../../node_modules') },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise() : reject(new Error(`child exited with ${code}: ${stderr}`))));
  });
}

// The child's compiled sources, and the files of tests that failed before their own cleanup.
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
