import { CompiledQuery, type Insertable, type Transaction } from 'kysely';
import type { ReadDatabase } from './read-database';

/** compiled SQL per dialect adapter: SQLite and PostgreSQL spell placeholders differently */
const compiledSqlByAdapter = new WeakMap<object, Map<string, string>>();

/**
 * Multi-row `INSERT ... ON CONFLICT (key) DO NOTHING` for projections. Kysely compiles the statement
 * once per (table, columns, row count) and the SQL text is reused with fresh parameters: building
 * and compiling a 500-row insert for every batch was a sixth of a full rebuild's time. The SQL comes
 * from kysely, so it is right for SQLite and PostgreSQL alike.
 */
export async function insertRowsIgnoringConflicts<Table extends keyof ReadDatabase & string>(
  trx: Transaction<ReadDatabase>,
  table: Table,
  conflictColumn: keyof ReadDatabase[Table] & string,
  rows: Array<Insertable<ReadDatabase[Table]>>,
  chunkSize = 500,
): Promise<void> {
  if (rows.length === 0) return;
  const adapter = trx.getExecutor().adapter;
  let compiledSql = compiledSqlByAdapter.get(adapter);
  if (!compiledSql) compiledSqlByAdapter.set(adapter, (compiledSql = new Map()));
  const columns = Object.keys(rows[0]) as Array<keyof Insertable<ReadDatabase[Table]> & string>;
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const key = `${table}|${conflictColumn}|${columns.join(',')}|${chunk.length}`;
    let sqlText = compiledSql.get(key);
    if (sqlText === undefined) {
      const template = trx
        .insertInto(table)
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        .values(chunk as any)
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        .onConflict((oc) => oc.column(conflictColumn as any).doNothing())
        .compile();
      sqlText = template.sql;
      compiledSql.set(key, sqlText);
    }
    const parameters: unknown[] = new Array(chunk.length * columns.length);
    let index = 0;
    for (const row of chunk) for (const column of columns) parameters[index++] = (row as Record<string, unknown>)[column];
    await trx.executeQuery(CompiledQuery.raw(sqlText, parameters));
  }
}
