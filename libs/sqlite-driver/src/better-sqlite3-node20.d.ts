// the Node 20 alias of better-sqlite3 (platform/sqlite-driver.ts) has the package's own types
declare module 'better-sqlite3-node20' {
  import BetterSqlite3 from 'better-sqlite3';
  export = BetterSqlite3;
}
