import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Compilable,
  type OperationNode,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { READ_NODES, writtenTables } from './written-tables.js';

interface Tables {
  parents: { id: number };
  items: { id: number; parent_id: number | null; note: string };
}

/** The real Kysely with its SQLite compiler, and no database: queries are only compiled. */
const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/** What the driver is handed for a query and reads: the compiled query's node. */
const compiled = (q: Compilable<unknown>): OperationNode => q.compile().query;

const REVISIT =
  'Kysely no longer builds its queries as packages/server/src/db/written-tables.ts reads them: ' +
  'revisit that file (and READ_NODES there) before taking this Kysely, or every write may count wrongly';

/** Representative writes of each kind the reader names, with an alias, a WITH part, and raw SQL. */
const queries = {
  insert: compiled(db.insertInto('items').values({ id: 1, note: 'x', parent_id: null })),
  insertWith: compiled(
    db
      .with('gone', (w) => w.deleteFrom('parents').returning('id'))
      .insertInto('items')
      .values({ id: 1, note: 'x', parent_id: null }),
  ),
  update: compiled(db.updateTable('items').set({ note: 'x' }).where('id', '=', 1)),
  updateAliased: compiled(db.updateTable('parents as p').set({ id: 2 })),
  updateWith: compiled(
    db
      .with('gone', (w) => w.deleteFrom('parents').returning('id'))
      .updateTable('items')
      .set({ note: 'x' }),
  ),
  delete: compiled(db.deleteFrom('items').where('id', '=', 1)),
  deleteAliased: compiled(db.deleteFrom('items as i').where('i.id', '=', 1)),
  deleteWith: compiled(
    db
      .with('old', (w) => w.selectFrom('parents').select('id'))
      .deleteFrom('items')
      .where('parent_id', 'in', (eb) => eb.selectFrom('old').select('id')),
  ),
  raw: sql`delete from parents`.compile(db).query,
  select: compiled(db.selectFrom('items').selectAll()),
};

/** Every node in a tree, by kind, found by walking every field. */
function nodesByKind(roots: OperationNode[]): Map<string, Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>[]>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (typeof node.kind === 'string') found.set(node.kind, [...(found.get(node.kind) ?? []), node]);
    Object.values(node).forEach(walk);
  };
  roots.forEach(walk);
  return found;
}

describe('the written-tables reader against the installed Kysely', () => {
  it('finds every node kind and field it reads in compiled queries', () => {
    const found = nodesByKind(Object.values(queries));
    for (const [kind, fields] of Object.entries(READ_NODES)) {
      const nodes = found.get(kind) ?? [];
      expect(nodes.length, `${REVISIT}: no ${kind} in compiled queries`).toBeGreaterThan(0);
      for (const field of fields) {
        expect(
          nodes.some((n) => n[field] !== undefined),
          `${REVISIT}: no ${kind} carries \`${field}\``,
        ).toBe(true);
      }
    }
  });

  it('sees the shapes it relies on: targets, aliases, columns set, WITH parts and raw SQL', () => {
    const table = (name: string) => ({ kind: 'TableNode', table: { identifier: { kind: 'IdentifierNode', name } } });
    expect(queries.insert, REVISIT).toMatchObject({ kind: 'InsertQueryNode', into: table('items') });
    expect(queries.insert, REVISIT).not.toHaveProperty('with');
    expect(queries.update, REVISIT).toMatchObject({
      kind: 'UpdateQueryNode',
      table: table('items'),
      updates: [{ kind: 'ColumnUpdateNode', column: { kind: 'ColumnNode', column: { name: 'note' } } }],
    });
    expect(queries.updateAliased, REVISIT).toMatchObject({
      kind: 'UpdateQueryNode',
      table: { kind: 'AliasNode', node: table('parents') },
    });
    expect(queries.delete, REVISIT).toMatchObject({
      kind: 'DeleteQueryNode',
      from: { kind: 'FromNode', froms: [table('items')] },
    });
    expect(queries.deleteAliased, REVISIT).toMatchObject({
      kind: 'DeleteQueryNode',
      from: { kind: 'FromNode', froms: [{ kind: 'AliasNode', node: table('items') }] },
    });
    for (const q of [queries.insertWith, queries.updateWith, queries.deleteWith]) {
      expect(q, REVISIT).toMatchObject({ with: { kind: 'WithNode' } });
    }
    expect(queries.raw.kind, REVISIT).toBe('RawNode');
  });

  it('names the tables of compiled inserts, updates and deletes, and nothing it cannot be sure of', () => {
    expect(writtenTables(queries.insert), REVISIT).toEqual(['items']);
    expect(writtenTables(queries.update), REVISIT).toEqual(['items']);
    expect(writtenTables(queries.updateAliased), REVISIT).toEqual(['parents']);
    expect(writtenTables(queries.delete), REVISIT).toEqual(['items']);
    expect(writtenTables(queries.deleteAliased), REVISIT).toEqual(['items']);
    for (const q of [queries.insertWith, queries.updateWith, queries.deleteWith, queries.raw, queries.select]) {
      expect(writtenTables(q), REVISIT).toBeUndefined();
    }
    expect(writtenTables(undefined)).toBeUndefined();
  });

  it('names an update of columns counted apart by table and column, and any other write by table', () => {
    const apart = { items: ['note'] };
    const node = (q: Compilable<unknown>) => writtenTables(compiled(q), apart);
    expect(node(db.updateTable('items').set({ note: 'x' }).where('id', '=', 1))).toEqual(['items.note']);
    expect(node(db.updateTable('items as i').set({ note: 'x' }))).toEqual(['items.note']);
    expect(node(db.updateTable('items').set({ note: sql`note || 'x'` }))).toEqual(['items.note']);
    expect(node(db.updateTable('items').set({ note: 'x', parent_id: null }))).toEqual(['items']);
    expect(node(db.insertInto('items').values({ id: 1, note: 'x', parent_id: null }))).toEqual(['items']);
    expect(node(db.deleteFrom('items'))).toEqual(['items']);
    expect(node(db.updateTable('parents').set({ id: 2 }))).toEqual(['parents']);
    // Without the list, the same update is a write of the table.
    expect(writtenTables(queries.update)).toEqual(['items']);
  });
});
