/**
 * Where one transaction stands.
 *
 * @example
 * if (flow.transactionState(txId) === 'rejected') say("We couldn't verify the purchase");
 */
export type TransactionState = 'approved' | 'verifying' | 'verified' | 'rejected' | 'finishing' | 'finished' | 'failed';

/**
 * The moves a transaction may make. A move not in this table is a bug (or a duplicate store event,
 * which stores send freely) and is refused rather than acted on twice.
 *
 * @example
 * TRANSACTION_TRANSITIONS.verifying; // ['verified', 'rejected']
 */
export const TRANSACTION_TRANSITIONS: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  approved: ['verifying', 'finishing'],
  verifying: ['verified', 'rejected'],
  verified: ['finishing'],
  // A rejected or unfinished transaction comes back from the store (on refresh) as approved again.
  rejected: ['approved'],
  finishing: ['finished', 'failed'],
  failed: ['approved'],
  finished: [],
};

/**
 * Where each transaction of a flow stands, moved only along {@link TRANSACTION_TRANSITIONS}.
 *
 * @example
 * const states = new TransactionStates();
 * if (states.approve(tx.id)) states.move(tx.id, 'verifying');
 */
export class TransactionStates {
  private readonly states = new Map<string, TransactionState>();

  /** Where a transaction stands, if the flow has seen it. */
  get(transactionId: string): TransactionState | undefined {
    return this.states.get(transactionId);
  }

  /** Takes an approval: a new transaction, or one coming back after a rejection or a failed finish. */
  approve(transactionId: string): boolean {
    if (!this.states.has(transactionId)) {
      this.states.set(transactionId, 'approved');
      return true;
    }
    return this.move(transactionId, 'approved');
  }

  /** Moves a transaction if the table allows it; answers whether it moved. */
  move(transactionId: string, to: TransactionState): boolean {
    const from = this.states.get(transactionId);
    if (from === undefined || !TRANSACTION_TRANSITIONS[from].includes(to)) return false;
    this.states.set(transactionId, to);
    return true;
  }
}
