import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Balances move out of `users` into a table of the store's own: the accounts module owns `users`, the
 * store owns what it counts. Every user gets a row with the balance they had; from here on the store
 * opens one for each new account (`openBalance`), so a row exists exactly while its user does. The
 * CHECK keeps refusing a negative balance even if a bug in the code tried.
 */
export const creditBalancesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('credit_balances')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('credits', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`credits >= 0`),
      )
      .execute();
    await sql`insert into credit_balances (user_id, credits) select id, credits from users`.execute(db);
    await db.schema.alterTable('users').dropColumn('credits').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('credits', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`credits >= 0`),
      )
      .execute();
    await sql`update users set credits = coalesce((select b.credits from credit_balances b where b.user_id = users.id), 0)`.execute(
      db,
    );
    await db.schema.dropTable('credit_balances').execute();
  },
};
