import BetterSqlite3 from 'better-sqlite3';
import BetterSqlite3ForNode20 from 'better-sqlite3-node20';

/**
 * better-sqlite3 for the Node that runs us (docs/adr/0018). Version 13 is the one that survives Node
 * 24 (12.x aborts the process when a garbage-collected Statement is finalized outside a JS context,
 * Node >= 24.19), but it needs Node 22 and crashes on Node 20; 12.x is kept, under the
 * `better-sqlite3-node20` alias, for machines that still have only Node 20. Both packages load their
 * native addon only when the first database is opened, so the one not chosen is never loaded.
 */
const Database: typeof BetterSqlite3 = Number(process.versions.node.split('.')[0]) >= 22 ? BetterSqlite3 : (BetterSqlite3ForNode20 as unknown as typeof BetterSqlite3);

// the types every caller names as `Database.Database`, `Database.Statement<...>`, as with the package itself
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace Database {
  export type Database = BetterSqlite3.Database;
  export type Statement<BindParameters extends unknown[] | object = unknown[], Result = unknown> = BetterSqlite3.Statement<BindParameters, Result>;
  export type Options = BetterSqlite3.Options;
  export type SqliteError = BetterSqlite3.SqliteError;
}

export default Database;
