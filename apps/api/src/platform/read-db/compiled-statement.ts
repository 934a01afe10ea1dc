import { CompiledQuery, type Compilable, type Kysely, type Transaction } from 'kysely';
import type { ReadDatabase } from './read-database';

/** A value that stands for the statement's i-th argument while kysely compiles it once. */
const placeholder = (index: number) => `\u0000rollcall-argument-${index}\u0000`;

/** where each of the compiled query's parameters comes from: an argument's index, or a value the builder fixed */
type ParameterSource = { argument: number } | { constant: unknown };

interface Compiled {
  sql: string;
  sources: ParameterSource[];
}

/**
 * A projection statement built and compiled by kysely once per dialect, then run with new arguments.
 * Building a query object and compiling it costs more than SQLite takes to run a one-row insert or
 * update: in a batched scan ingest, kysely's builders and compiler were a tenth of the main thread's
 * time (docs/benchmarks.md, 'What bounds each goal still missed'). The SQL still comes from kysely,
 * so it is right for SQLite and PostgreSQL alike.
 *
 * `build` receives one placeholder per argument and must use each exactly once, as a value (not as
 * a table or column name); compiling checks that, so a statement that would bind the wrong value
 * fails at its first use, in every test that runs it. Literals the builder adds itself (a `+ 1`)
 * stay as compiled.
 */
export function compiledStatement<Args extends readonly unknown[]>(
  arity: Args['length'],
  build: (db: Kysely<ReadDatabase>, ...args: string[]) => Compilable,
): (trx: Kysely<ReadDatabase> | Transaction<ReadDatabase>, ...args: Args) => Promise<{ numAffectedRows?: bigint; rows: unknown[] }> {
  const byAdapter = new WeakMap<object, Compiled>();
  const compile = (db: Kysely<ReadDatabase>): Compiled => {
    const placeholders = Array.from({ length: arity }, (_, index) => placeholder(index));
    const query = build(db, ...placeholders).compile();
    const seen = new Set<number>();
    const sources = query.parameters.map((value): ParameterSource => {
      const argument = typeof value === 'string' ? placeholders.indexOf(value) : -1;
      if (argument < 0) return { constant: value };
      if (seen.has(argument)) throw new Error(`compiledStatement: argument ${argument} is used twice in ${query.sql}`);
      seen.add(argument);
      return { argument };
    });
    if (seen.size !== arity || placeholders.some((text) => query.sql.includes(text))) {
      throw new Error(`compiledStatement: each of the ${arity} arguments must be bound once as a value in ${query.sql}`);
    }
    return { sql: query.sql, sources };
  };
  return async (trx, ...args) => {
    const adapter = trx.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) byAdapter.set(adapter, (compiled = compile(trx)));
    const parameters = compiled.sources.map((source) => ('argument' in source ? args[source.argument] : source.constant));
    return trx.executeQuery(CompiledQuery.raw(compiled.sql, parameters));
  };
}
