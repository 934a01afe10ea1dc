// The machine's speed at the moment of a run. This shared VM's CPU speed varies from day to day
// (the same code measured 52,756 rebuilt events/s one day and about 21,500 on a 200,000-event store
// the next), so every run times a fixed piece of work of the kinds the scenarios spend their time on:
// JSON encoding and decoding, SQLite inserts and SHA-256. Figures from runs whose reference times
// differ are compared after scaling by them (docs/benchmarks.md, 'Comparing runs').
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function oneRound() {
  const started = process.hrtime.bigint();
  const event = { streamId: 'account-0192f0c4', type: 'AccountCreated', data: { username: 'katherine.johnson', email: 'katherine@example.com', firstName: 'Katherine', lastName: 'Johnson', statusId: 1, organizationIds: ['a', 'b'] } };
  let length = 0;
  for (let i = 0; i < 100_000; i++) length += JSON.parse(JSON.stringify({ ...event, version: i })).type.length;

  const Database = require('@rollcall/sqlite-driver').default;
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, stream TEXT NOT NULL, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (stream, body) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 50_000; i++) insert.run(`stream-${i}`, `{"n":${i}}`);
  })();
  db.close();

  const block = Buffer.alloc(1 << 20, 7);
  const hash = createHash('sha256');
  for (let i = 0; i < 64; i++) hash.update(block);
  hash.digest();
  if (length === 0) throw new Error('reference work did nothing');
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** median milliseconds of five rounds of the reference work (lower is faster) */
export function referenceWorkMs() {
  oneRound(); // warms the JIT and loads better-sqlite3
  const rounds = Array.from({ length: 5 }, oneRound).sort((a, b) => a - b);
  return Math.round(rounds[2]);
}
