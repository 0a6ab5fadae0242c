// Grows a migrated Till SQLite database to a given size before a server opens it: users with a year
// of history (paid orders with their items and provider data, and the ledger entries they made), in
// large transactions straight through better-sqlite3. Columns the rows do not name keep their
// defaults, so a column added later (or moved to another table) does not stop it; a new column that
// must be given stops it with its name.
import Database from 'better-sqlite3';
import { closeSync, fsyncSync, openSync, statSync } from 'node:fs';
import { newId } from '../../packages/server/dist/modules/store/ids.js';

/** Users per transaction. */
const BATCH = 1_000;
/** Each user's history. */
const ORDERS = 8;
const LEDGER = 2 * ORDERS;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export interface Grown {
  users: number;
  orders: number;
  ledger: number;
  bytes: number;
  ms: number;
}

type Row = Record<string, string | number | null>;

/** An insert of `values`' columns into `table`, checked against the table's columns first. */
function inserter(db: Database.Database, table: string, columns: readonly string[]) {
  const info = db.prepare(`PRAGMA table_info(${table})`).all() as {
    name: string;
    notnull: number;
    dflt_value: unknown;
    pk: number;
  }[];
  const unknown = columns.filter((c) => !info.some((i) => i.name === c));
  if (unknown.length) throw new Error(`${table} has no column ${unknown.join(', ')}`);
  const needed = info.filter((i) => i.notnull && i.dflt_value === null && !columns.includes(i.name));
  if (needed.length) throw new Error(`${table} needs a value for ${needed.map((i) => i.name).join(', ')}`);
  const statement = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  return (row: Row) => statement.run(row);
}

/** Writes a file's pages to the disk, so that the server's first sync does not wait for them. */
export function syncFile(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Grows `file` (already migrated, no server on it) to at least `targetBytes`. */
export function growDatabase(file: string, targetBytes: number, now = Date.now()): Grown {
  const started = Date.now();
  const db = new Database(file);
  // A bench database: a crash while growing it loses nothing worth keeping.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const user = inserter(db, 'users', [
    'id',
    'email',
    'name',
    'lang',
    'level',
    'email_confirmed',
    'password_hash',
    'created_at',
    'updated_at',
  ]);
  const order = inserter(db, 'orders', [
    'id',
    'user_id',
    'status',
    'currency',
    'subtotal',
    'discount',
    'total',
    'credits_spent',
    'provider',
    'data',
    'created_at',
    'updated_at',
    'paid_at',
  ]);
  const item = inserter(db, 'order_items', [
    'order_id',
    'line',
    'product_id',
    'alias',
    'title',
    'type',
    'price_amount',
    'price_currency',
    'quantity',
    'grant_credits',
  ]);
  const entry = inserter(db, 'credit_ledger', [
    'id',
    'user_id',
    'amount',
    'reason',
    'reference',
    'balance_after',
    'created_at',
  ]);
  // The database's own size, pages still in the WAL included (the WAL's file may hold a page twice).
  const size = () =>
    (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  // An argon2id hash's length and shape; no one signs in as these users.
  const hash = `$argon2id$v=19$m=20480,t=2,p=1$${'c2FsdHNhbHRzYWx0c2FsdA'}$${'A'.repeat(43)}`;
  // Every account has its balance row in the store's table, at 0 once its history is spent.
  const balanceRow = inserter(db, 'credit_balances', ['user_id', 'credits']);
  let users = 0;
  const batch = db.transaction((from: number) => {
    for (let u = from; u < from + BATCH; u++) {
      const joined = now - YEAR_MS + (u % 1000) * 1000;
      const id = `grown-${u.toString(36).padStart(8, '0')}`;
      user({
        id,
        email: `buyer.${u}@shop-history.example`,
        name: `Buyer number ${u}`,
        lang: u % 3 === 0 ? 'de' : 'en',
        level: 1,
        email_confirmed: 1,
        password_hash: hash,
        created_at: joined,
        updated_at: joined,
      });
      let balance = 0;
      for (let o = 0; o < ORDERS; o++) {
        const at = joined + (o + 1) * (YEAR_MS / (ORDERS + 2)) + (u % 997);
        const orderId = newId(at);
        const price = 499 + ((u + o) % 5) * 100;
        const grant = 100 + ((u + o) % 4) * 50;
        order({
          id: orderId,
          user_id: id,
          status: 'paid',
          currency: 'EUR',
          subtotal: price,
          discount: 0,
          total: price,
          credits_spent: 0,
          provider: 'stripe',
          // What a provider's webhook left: its ids and the buyer's country, as a paid order keeps.
          data: JSON.stringify({
            session: `cs_live_${orderId}${'a'.repeat(24)}`,
            paymentIntent: `pi_${orderId.slice(4)}${'b'.repeat(10)}`,
            customer: `cus_${id}`,
            country: u % 2 ? 'DE' : 'AT',
            receipt: `https://pay.example/receipts/${orderId}`,
          }),
          created_at: at,
          updated_at: at + 4000,
          paid_at: at + 4000,
        });
        item({
          order_id: orderId,
          line: 0,
          product_id: `credits-${grant}`,
          alias: `credits-${grant}`,
          title: `${grant} credits`,
          type: 1,
          price_amount: price,
          price_currency: 'EUR',
          quantity: 1,
          grant_credits: grant,
        });
        balance += grant;
        entry({
          id: newId(at + 4000),
          user_id: id,
          amount: grant,
          reason: 'purchase',
          reference: orderId,
          balance_after: balance,
          created_at: at + 4000,
        });
        // The last order's credits are all spent: each user ends at the balance a new account has (0).
        const spent = o === ORDERS - 1 ? balance : Math.min(balance, 60 + (o % 3) * 20);
        balance -= spent;
        entry({
          id: newId(at + 86_400_000),
          user_id: id,
          amount: -spent,
          reason: 'spend',
          reference: `order-of-goods-${orderId}`,
          balance_after: balance,
          created_at: at + 86_400_000,
        });
      }
      balanceRow({ user_id: id, credits: balance });
    }
  });
  while (size() < targetBytes) {
    batch(users);
    users += BATCH;
    if (users % (BATCH * 100) === 0) db.pragma('wal_checkpoint(TRUNCATE)');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  // Written with `synchronous = OFF`: the file's pages are on their way to the disk still. Synced here,
  // so that the server's first checkpoint does not wait for them inside the first round (seen as a
  // 340 ms event-loop delay that belonged to this step, not to the server).
  syncFile(file);
  return {
    users,
    orders: users * ORDERS,
    ledger: users * LEDGER,
    bytes: statSync(file).size,
    ms: Date.now() - started,
  };
}
