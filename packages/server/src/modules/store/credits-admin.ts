import type { CreditEntry } from '@till/protocol';
import { runInTransaction } from '../../db/transaction.js';
import { fail, type Outcome } from '../../errors.js';
import { creditHistory, moveCredits } from './credits.js';
import type { StoreDeps } from './deps.js';

/** Credits as administrators see and correct them. */
export class CreditsAdmin {
  constructor(private readonly deps: StoreDeps) {}

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
}
