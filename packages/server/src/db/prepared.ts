import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { runDirect } from './group-commit.js';
import type { Executor } from './rows.js';
import type { Database } from './schema.js';

const MARK = '\u0000param:';

type Slot = { name: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
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
 * compiled in for good (a constant status, a fixed list).
 */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, p: Param<P>) => Compilable<R>,
): (x: Executor, params: P) => Promise<QueryResult<R>> {
  // Keyed by the executor's adapter: one per database (and shared with its transactions).
  const compiled = new WeakMap<object, Compiled>();
  const compile = (x: Executor): Compiled => {
    const key = x.getExecutor().adapter;
    let found = compiled.get(key);
    if (!found) {
      const stand = ((name: string) => `${MARK}${name}`) as Param<P>;
      const query = build(x, stand).compile();
      const slots = query.parameters.map((value): Slot =>
        typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) } : { value },
      );
      found = { query, slots };
      compiled.set(key, found);
    }
    return found;
  };
  return (x, params) => {
    const { query, slots } = compile(x);
    const values = params as Record<string, unknown>;
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    const run = { ...query, parameters };
    return runDirect<R>(x, run) ?? x.executeQuery<R>(run);
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
