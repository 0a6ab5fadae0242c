import type { FastifyBaseLogger } from 'fastify';
import type { Expression, Kysely, SqlBool } from 'kysely';
import type { Config } from '../../config.js';
import type { Db, Dialect } from '../../db/connect.js';
import type { Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';

/** What every part of the store is built from. */
export interface StoreDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** Commits so far to the named tables, where the database counts them (SQLite: see `Db.version`). */
  version?: Db['version'];
  /** Read-only queries outside any transaction (SQLite: the read connection, see `Db.read`). */
  read?: Db['read'];
  /**
   * Where the database counts some updates apart from their table's other writes (SQLite: see
   * `Db.countApart`): the store registers the coupon counts its checkouts change.
   */
  countApart?: Db['countApart'];
  /**
   * Where administrators' changes to an account are recorded (the accounts module's security log),
   * inside the change's own transaction.
   */
  securityEvents?: AccountEvents | undefined;
  /** The buyers' accounts, which the accounts module owns (the app hands in its API). */
  accounts?: StoreAccounts | undefined;
  /** Payments' references of orders, which the payments module owns (the app hands in its API). */
  paymentRefs?: PaymentRefs | undefined;
}

/** What administrators' order views ask of the accounts module. */
export interface StoreAccounts {
  /**
   * A condition for an order query: the user `userId` names has an e-mail address that, lower-cased,
   * matches `pattern` (LIKE, with `\` as its escape).
   */
  emailLike(userId: Expression<string>, pattern: string): Expression<SqlBool>;
  /** Users' e-mail addresses by id, and whether each account is deleted (its address is then a placeholder). */
  emailsOf(x: Executor, userIds: readonly string[]): Promise<Map<string, { email: string; deleted: boolean }>>;
}

/** Orders' payment references (oldest first), as administrators' order views show them. */
export type PaymentRefs = (
  x: Executor,
  orderIds: readonly string[],
) => Promise<{ order_id: string; kind: string; ref: string }[]>;

/** The security-log writer as the store reports to it. */
export interface AccountEvents {
  write(
    input: {
      userId: string;
      kind: 'admin_credits_adjusted';
      ip?: string | null;
      userAgent?: string | null;
      actorId?: string | null;
      detail?: Record<string, string | number | boolean | null>;
    },
    trx?: Kysely<Database>,
  ): Promise<void>;
}
