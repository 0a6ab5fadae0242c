import type { Kysely, Migration } from 'kysely';

/**
 * Mails owed to a buyer (a receipt, a refund notice, ...), written in the transaction of their
 * cause and sent after its commit: a crash between the two leaves the mail here to be sent later.
 * `key` names the cause, so one cause queues one mail however often it is applied.
 */
export const mailOutboxMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('order_id', 'text')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // Not sent before this time: a refund the provider has still to accept waits.
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      // An instance sending it holds it until then; a crashed sender's hold runs out.
      .addColumn('claimed_until', 'bigint')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('sent_at', 'bigint')
      .execute();
    await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['sent_at', 'due_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_outbox').execute();
  },
};
