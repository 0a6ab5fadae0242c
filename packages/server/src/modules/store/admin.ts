import type { AdminOrder, AdminUser, CreditEntry } from '@till/protocol';
import type { AccountsService } from '../accounts/service.js';
import { runInTransaction } from '../../db/transaction.js';
import { fail, type Outcome } from '../../errors.js';
import { creditHistory, moveCredits } from './credits.js';
import { iso, pageOf, type StoreDeps } from './deps.js';
import { revokeGrants } from './grants.js';
import { adminOrderOf } from './order-queries.js';
import { grantLinesOf, itemsOf, toOrder, transitionOrder } from './orders.js';

/** Users and their credits, and refunds: the administrator's side of the store. */
export class StoreAdmin {
  constructor(
    private readonly deps: StoreDeps,
    private readonly accounts: AccountsService,
  ) {}

  async listUsers(input: { page: number; pageSize: number; query?: string | undefined }) {
    let q = this.deps.db.selectFrom('users');
    if (input.query) {
      const like = `%${input.query.toLowerCase().replace(/[%_\\]/g, '')}%`;
      q = q.where((eb) => eb.or([eb('email', 'like', like), eb(eb.fn('lower', ['name']), 'like', like)]));
    }
    const { offset, limit } = pageOf(input);
    const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(offset).limit(limit).execute();
    const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const users: AdminUser[] = rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      level: this.accounts.levelOf(row),
      emailConfirmed: Boolean(row.email_confirmed),
      credits: row.credits,
      createdAt: iso(row.created_at),
    }));
    return { users, total: Number(count.n) };
  }

  /** A ledger entry with the administrator's reason: 909 when it would take the balance below zero. */
  async adjustCredits(
    adminId: string,
    input: { userId: string; amount: number; reason: string },
  ): Promise<Outcome<{ balance: number; entry: CreditEntry }>> {
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const entry = await moveCredits(trx, {
        userId: input.userId,
        amount: input.amount,
        reason: 'adjustment',
        // Who and why, so that the ledger explains itself without another table.
        reference: `${input.reason} (by ${adminId})`.slice(0, 300),
        now,
      });
      return { balance: entry.balanceAfter, entry };
    });
  }

  async creditHistory(input: { userId: string; page: number; pageSize: number }) {
    const history = await creditHistory(this.deps, input.userId, input);
    return history ?? fail.notFound('userId');
  }

  /**
   * paid -> refunded: gives back the credits the order cost and takes back what it granted, in the
   * transaction that changes the status. 912 when the order is not paid, or (with `reason:
   * credits_spent`) when the buyer no longer has the credits it granted.
   */
  async refund(iden: string, reason: string | undefined): Promise<Outcome<{ order: AdminOrder }>> {
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const row = await transitionOrder(trx, iden, 'refunded', now, reason ? `refund: ${reason}` : 'refund');
      const items = await itemsOf(trx, iden);
      await revokeGrants(
        trx,
        { id: row.id, userId: row.user_id, creditsSpent: row.credits_spent, status: 'paid' },
        grantLinesOf(items),
        now,
      );
      return { order: await adminOrderOf(trx, toOrder(row, items)) };
    });
  }
}
