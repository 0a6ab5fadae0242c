import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every table has one owner, and only its owner's SQL names it (docs/DEVELOPING.md, Storage). A module
 * reaches another module's data through that module's API, or a port the app or the flows hand in;
 * the flows own no table and compose the modules through their `index.ts`; the platform owns the
 * tables of its own services (jobs, the mail outbox). Migrations (the schema's history), the
 * whole-database tools in `ops/` and `cli/` (checks, backups, restores read every table as data) and
 * the app's health probe stand outside the rule.
 */
const OWNERS = {
  accounts: [
    'users',
    'sessions',
    'link_tokens',
    'user_totp',
    'recovery_codes',
    'login_challenges',
    'known_devices',
    'device_tokens',
    'security_log',
    'passkeys',
    'webauthn_challenges',
    'social_identities',
    'social_flows',
  ],
  store: [
    'products',
    'product_texts',
    'coupons',
    'coupon_uses',
    'orders',
    'order_items',
    'order_refunds',
    'credit_balances',
    'credit_ledger',
    'entitlements',
    'store_meta',
  ],
  files: ['files', 'file_usage', 'storage_writes', 'object_removals'],
  payments: ['payment_events', 'payment_refs'],
  platform: ['job_leases', 'mail_outbox'],
} as const;

type Owner = keyof typeof OWNERS;

const OWNER_OF = new Map<string, Owner>(
  Object.entries(OWNERS).flatMap(([owner, tables]) => tables.map((t) => [t, owner as Owner] as const)),
);

/**
 * Where code stands that names tables: each module's folder is that module's, the platform's folders
 * are the platform's, and the flows are nobody's (they may name no table at all).
 */
function ownerOfFile(path: string): Owner | 'flows' | undefined {
  const module = /^modules\/([a-z]+)\//.exec(path)?.[1];
  if (module) return module in OWNERS ? (module as Owner) : undefined;
  if (path.startsWith('flows/')) return 'flows';
  if (/^(db|http|mail|security)\//.test(path) && !path.startsWith('db/migrations/')) return 'platform';
  return undefined;
}

/** The source with its comments blanked out (a comment may say "from users" without being SQL). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The texts of the string and template literals in a source. */
function literals(source: string): string[] {
  return [...source.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) =>
    m[0].slice(1, -1),
  );
}

const KYSELY_CALL =
  /\b(?:selectFrom|updateTable|insertInto|replaceInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|preparedInsert|table)\(\s*['"`]([a-z_]+)/g;
/** A table after an SQL keyword in raw SQL (`from users`, `update "orders"`, `join credit_ledger l`). */
const RAW_SQL = /\b(?:from|join|into|update|table|exists)\s+"?([a-z_]+)"?/gi;
/** A column named with its table (`'users.email'`, `sql.ref('orders.id')`). */
const QUALIFIED = /^"?([a-z_]+)"?\."?[a-z_*]+"?$/;

/** The known tables a source's SQL names: Kysely's builder calls, raw SQL, and columns named with their table. */
function tablesNamed(source: string): Set<string> {
  const code = withoutComments(source);
  const found = new Set<string>();
  const note = (name: string | undefined) => {
    if (name && OWNER_OF.has(name)) found.add(name);
  };
  for (const m of code.matchAll(KYSELY_CALL)) note(m[1]);
  for (const text of literals(code)) {
    for (const m of text.matchAll(RAW_SQL)) note(m[1]?.toLowerCase());
    const table = text.split(/\s+as\s+/i)[0]?.trim() ?? '';
    note(QUALIFIED.exec(table)?.[1]);
  }
  return found;
}

/** Each file's naming of a table it does not own, as `file: table (owner)`, sorted. */
function violations(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, source] of Object.entries(files)) {
    const own = ownerOfFile(path);
    if (!own) continue;
    for (const table of tablesNamed(source)) {
      const owner = OWNER_OF.get(table);
      if (owner !== own) found.push(`${path}: ${table} (${owner})`);
    }
  }
  return found.sort();
}

const src = fileURLToPath(new URL('.', import.meta.url));

/** Every non-test source file of the server, by its path under `src/`. */
function serverSources(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-support') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        files[relative(src, path).split('\\').join('/')] = readFileSync(path, 'utf8');
      }
    }
  };
  walk(src);
  return files;
}

/**
 * Crossings that are known and still to be moved behind their owner's API: each is listed exactly,
 * so that a new one fails, and so does one that is gone but still listed (take it off the list).
 */
const KNOWN: string[] = [];

describe('table ownership', () => {
  it('gives every table of the schema an owner', () => {
    const schema = readFileSync(join(src, 'db/schema.ts'), 'utf8');
    const block = /export interface Database \{([\s\S]*?)\n\}/.exec(schema)?.[1] ?? '';
    const tables = [...block.matchAll(/^\s*([a-z_]+):/gm)].map((m) => m[1]);
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((t) => !OWNER_OF.has(t!))).toEqual([]);
    expect([...OWNER_OF.keys()].filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('finds no module, flow or platform code naming a table it does not own, beyond the known ones', () => {
    const files = serverSources();
    // The scan reads the real sources: the store's own SQL is found as its own.
    expect(tablesNamed(files['modules/store/credits.ts'] ?? '')).toEqual(new Set(['credit_balances', 'credit_ledger']));
    expect(violations(files)).toEqual(KNOWN);
  });

  it('fires on a planted crossing, in every form SQL takes here', () => {
    const planted = {
      // Kysely's builder, with an alias.
      'modules/files/repo.ts': "await trx.updateTable('users as u').set({ name: 'x' }).execute();",
      // A join and a column named with its table.
      'modules/store/order-queries.ts':
        "x.selectFrom('orders').innerJoin('payment_refs', 'payment_refs.order_id', 'orders.id').select('users.email')",
      // Raw SQL, quoted and not.
      'modules/accounts/sign-in.ts':
        'await sql`update "credit_balances" set credits = 0`.execute(db); sql`select * from orders`',
      // The flows name no table at all, not even to read.
      'flows/checkout.ts': "await this.deps.db.selectFrom('entitlements').selectAll().execute();",
      // The platform names none of the modules' tables.
      'db/rows.ts': "db.deleteFrom('sessions')",
      // What is outside the rule, and what a comment says, is not a crossing.
      'ops/check-data.ts': "db.selectFrom('users')",
      'modules/payments/refs.ts': "// reads from users first\nx.selectFrom('payment_refs')",
    };
    expect(violations(planted)).toEqual([
      'db/rows.ts: sessions (accounts)',
      'flows/checkout.ts: entitlements (store)',
      'modules/accounts/sign-in.ts: credit_balances (store)',
      'modules/accounts/sign-in.ts: orders (store)',
      'modules/files/repo.ts: users (accounts)',
      'modules/store/order-queries.ts: payment_refs (payments)',
      'modules/store/order-queries.ts: users (accounts)',
    ]);
  });
});
