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
    client: { ip?: string | null; userAgent?: string | null } = {},
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
      await this.deps.securityEvents?.write(
        {
          userId: input.userId,
          kind: 'admin_credits_adjusted',
          ip: client.ip ?? null,
          userAgent: client.userAgent ?? null,
          actorId: adminId,
          detail: { amount: input.amount, reason: input.reason },
        },
        trx,
      );
      return { balance: entry.balanceAfter, entry };
    });
  }

  async creditHistory(input: { userId: string; page: number; pageSize: number }) {
    const history = await creditHistory(this.deps, input.userId, input);
    return history ?? fail.notFound('userId');
  }
}
