import {
  AliasNode,
  ColumnNode,
  DeleteQueryNode,
  InsertQueryNode,
  TableNode,
  UpdateQueryNode,
  type OperationNode,
} from 'kysely';

/**
 * What {@link writtenTables} reads of Kysely's query nodes, named here so that a Kysely upgrade that
 * changes them fails `written-tables.test.ts` (which compiles real queries and checks each of these
 * nodes and fields) before it quietly makes every write count as changing every table, or none:
 *
 * - `InsertQueryNode.into` (a `TableNode`), `UpdateQueryNode.table` (a `TableNode`, or an `AliasNode`
 *   around one), `DeleteQueryNode.from.froms` (the same, one per table), and each query's `with`;
 * - `TableNode.table.identifier.name`, `AliasNode.node`;
 * - `UpdateQueryNode.updates[].column` (a `ColumnNode`) and `ColumnNode.column.name`.
 */
export const READ_NODES = {
  InsertQueryNode: ['into', 'with'],
  UpdateQueryNode: ['table', 'updates', 'with'],
  DeleteQueryNode: ['from', 'with'],
  FromNode: ['froms'],
  AliasNode: ['node'],
  TableNode: ['table'],
  ColumnUpdateNode: ['column'],
  ColumnNode: ['column'],
} as const;

/** Stands for the writes whose tables cannot be named: they count as changing every table. */
export const EVERY_TABLE = '*';

/** Columns whose updates count apart from their table's other writes, by table (see {@link writtenTables}). */
export type CountedApart = Readonly<Record<string, readonly string[]>>;

/** The name of a table in a query's target, or undefined for anything else (an alias of one is unwrapped). */
function tableName(node: OperationNode | undefined): string | undefined {
  const inner = node && AliasNode.is(node) ? node.node : node;
  return inner && TableNode.is(inner) ? inner.table.identifier.name : undefined;
}

/** The columns an UPDATE sets, or undefined when one of them is not a plain column. */
function updatedColumns(query: UpdateQueryNode): string[] | undefined {
  const names: string[] = [];
  for (const update of query.updates ?? []) {
    if (!ColumnNode.is(update.column)) return undefined;
    names.push(update.column.column.name);
  }
  return names;
}

/**
 * The tables a write changes, read from Kysely's query: the target of an INSERT, UPDATE or DELETE.
 * Undefined when that cannot be told for sure (raw SQL, a query with a WITH part that could write
 * elsewhere, anything unexpected): such a write counts as changing every table.
 *
 * An UPDATE that sets nothing but columns listed in `apart` for its table counts as a change of
 * `table.column` for each of them, not of the table: a purchase changes a balance many times a second,
 * and what depends on the rest of the row need not be read again for it.
 * Why: docs/decisions/003-values-kept-between-commits.md.
 */
export function writtenTables(node: OperationNode | undefined, apart: CountedApart = {}): string[] | undefined {
  if (!node) return undefined;
  if (InsertQueryNode.is(node)) {
    if (node.with) return undefined;
    const name = tableName(node.into);
    return name === undefined ? undefined : [name];
  }
  if (UpdateQueryNode.is(node)) {
    if (node.with) return undefined;
    const name = tableName(node.table);
    if (name === undefined) return undefined;
    const own = Object.hasOwn(apart, name) ? apart[name] : undefined;
    if (own) {
      const columns = updatedColumns(node);
      if (columns?.length && columns.every((c) => own.includes(c))) return columns.map((c) => `${name}.${c}`);
    }
    return [name];
  }
  if (DeleteQueryNode.is(node)) {
    if (node.with) return undefined;
    const names = (node.from?.froms ?? []).map(tableName);
    return names.length && names.every((n) => n !== undefined) ? (names as string[]) : undefined;
  }
  return undefined;
}
