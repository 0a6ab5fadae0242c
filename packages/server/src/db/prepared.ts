import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { runDirect } from './direct-statements.js';
import type { Executor } from './rows.js';
import type { Database } from './schema.js';

const MARK = '\u0000param:';

/** Where a compiled parameter's value comes from: a named parameter (of one row), or a constant. */
type Slot = { row: number; name: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
}

/** Compiles a query built with stand-ins (`MARK` + `row:name`), noting where each parameter's value comes from. */
function compileSlots(query: Compilable<unknown>): Compiled {
  const compiled = query.compile();
  const slots = compiled.parameters.map((value): Slot => {
    if (typeof value !== 'string' || !value.startsWith(MARK)) return { value };
    const at = value.indexOf(':', MARK.length);
    return { row: Number(value.slice(MARK.length, at)), name: value.slice(at + 1) };
  });
  return { query: compiled, slots };
}

/** Runs a compiled query with each slot's value taken from `rows`. */
function runSlots<R>(x: Executor, { query, slots }: Compiled, rows: readonly object[]): Promise<QueryResult<R>> {
  const parameters = slots.map((slot) =>
    'name' in slot ? (rows[slot.row] as Record<string, unknown>)[slot.name] : slot.value,
  );
  const run = { ...query, parameters };
  return runDirect<R>(x, run) ?? x.executeQuery<R>(run);
}

/** Stands for a named parameter while a {@link prepared} query is built. */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

/**
 * A query built and compiled once per database engine, then run with new parameters.
 *
 * Kysely builds an operation tree and compiles it to SQL for every query; on the store's write path
 * (eight small statements per purchase) that costs more than SQLite takes to run them. A prepared
 * query is built with stand-ins for its parameters (`p('userId')`), compiled on first use for the
 * engine of the executor it runs on, and afterwards only its parameter list is filled in. It runs
 * through the same executor as any Kysely query, so it joins the caller's transaction.
 *
 * Only values that differ between runs should be parameters; anything passed as a plain value is
 * compiled in for good (a constant status, a fixed list). Why: docs/decisions/002-direct-prepared-statements.md.
 */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, p: Param<P>) => Compilable<R>,
): (x: Executor, params: P) => Promise<QueryResult<R>> {
  // Keyed by the executor's adapter: one per database (and shared with its transactions).
  const compiled = new WeakMap<object, Compiled>();
  const stand = ((name: string) => `${MARK}0:${name}`) as Param<P>;
  return (x, params) => {
    const key = x.getExecutor().adapter;
    let found = compiled.get(key);
    if (!found) {
      found = compileSlots(build(x, stand));
      compiled.set(key, found);
    }
    return runSlots<R>(x, found, [params]);
  };
}

/**
 * An insert of any number of whole rows into one table in a single statement, prepared as
 * {@link prepared} queries are: compiled once per database engine and number of rows, then run with
 * the rows' values. One statement for an order's items instead of one per item: on PostgreSQL each
 * statement is a round trip to the database. `columns` is as for {@link allParams}; callers bound the
 * number of rows (an order has at most fifty lines), and so the statements kept.
 */
export function preparedInsert<Row extends object>(
  table: keyof Database & string,
  columns: Record<keyof Row & string, 1>,
): (x: Executor, rows: readonly Row[]) => Promise<QueryResult<never>> {
  const compiled = new WeakMap<object, Map<number, Compiled>>();
  return (x, rows) => {
    if (!rows.length) return Promise.resolve({ rows: [] });
    const key = x.getExecutor().adapter;
    let byCount = compiled.get(key);
    if (!byCount) {
      byCount = new Map();
      compiled.set(key, byCount);
    }
    let found = byCount.get(rows.length);
    if (!found) {
      const values = rows.map((_, i) => allParams(((name: string) => `${MARK}${i}:${name}`) as Param<Row>, columns));
      found = compileSlots(x.insertInto(table).values(values as never));
      byCount.set(rows.length, found);
    }
    return runSlots<never>(x, found, rows);
  };
}

/**
 * Every named column as a parameter of the same name, for an insert of whole rows. `names` is written
 * as an object with every column of the row as a key (`{ id: 1, ... } satisfies Record<keyof Row, 1>`),
 * so that a column added to the table and not here fails to compile.
 */
export function allParams<P>(p: Param<P>, names: Record<keyof P & string, 1>): P {
  return Object.fromEntries(Object.keys(names).map((n) => [n, p(n as keyof P & string)])) as P;
}
