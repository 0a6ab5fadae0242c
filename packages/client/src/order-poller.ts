import { Code, ORDER_POLL_INTERVAL_MS, OrderStatus, Paths } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import type { OrderStatusData } from './protocol-types.js';
import type { StoreClient } from './store-client.js';

/**
 * One order to watch: the order status path (default `api/store/orderStatus`), the order's `iden`,
 * and what to do with each answer.
 *
 * @example
 * const entry: PollEntry = { iden: order.iden, callback: (res) => res.code === 900 && setStatus(res.data.status) };
 */
export interface PollEntry {
  url?: string;
  iden: string;
  callback: (answer: DataAnswer<OrderStatusData>) => void;
}

/**
 * Options of {@link OrderPoller}.
 *
 * @example
 * const poller = new OrderPoller({ store: till.store, intervalMs: 2_000 });
 */
export interface OrderPollerOptions {
  /** The store client that sends `iden` and the token. */
  store: StoreClient;
  /** Milliseconds between rounds; default 2 000 (the specification's). */
  intervalMs?: number;
}

/**
 * Watches pending orders: one timer, every 2 s, posts `iden` and the token for each entry, hands
 * each answer to the entry's callback and drops the entry once the order is final (any status but
 * `pending`). The timer starts with the first entry and stops with the last. A failed poll (905, a
 * throwing callback) is handed on and the entry stays for the next round.
 *
 * @example
 * const poller = new OrderPoller({ store });
 * poller.add({ iden: order.iden, callback: (res) => { if (res.code === 900) setStatus(res.data.status); } });
 */
export class OrderPoller {
  private readonly entries = new Map<string, PollEntry>();
  private readonly inFlight = new Set<string>();
  private readonly store: StoreClient;
  private readonly intervalMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: OrderPollerOptions) {
    this.store = options.store;
    this.intervalMs = options.intervalMs ?? ORDER_POLL_INTERVAL_MS;
  }

  /** How many orders are watched. */
  get size(): number {
    return this.entries.size;
  }

  /** True while the timer runs. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Watches an order (replacing an earlier entry for the same `iden`); answers a function that
   * stops watching it.
   *
   * @example
   * const stop = poller.add({ iden, callback });
   */
  add(entry: PollEntry): () => void {
    this.entries.set(entry.iden, entry);
    if (this.timer === undefined) this.timer = setInterval(() => this.tick(), this.intervalMs);
    return () => {
      if (this.entries.get(entry.iden) === entry) this.remove(entry.iden);
    };
  }

  /**
   * Stops watching an order.
   *
   * @example
   * poller.remove(order.iden);
   */
  remove(iden: string): void {
    this.entries.delete(iden);
    if (this.entries.size === 0) this.halt();
  }

  /**
   * Stops watching every order.
   *
   * @example
   * poller.stop(); // the user logged out
   */
  stop(): void {
    this.entries.clear();
    this.halt();
  }

  private halt(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    // Polls need a token; logged out, the entries wait for the next round instead of queueing
    // one status call per round until someone logs in.
    if (!this.store.session.token) return;
    for (const entry of this.entries.values()) {
      // A slow answer (store calls may take up to 5 s) must not pile up calls for the same order.
      if (this.inFlight.has(entry.iden)) continue;
      this.inFlight.add(entry.iden);
      void this.poll(entry).finally(() => this.inFlight.delete(entry.iden));
    }
  }

  private async poll(entry: PollEntry): Promise<void> {
    const answer = await this.store.orderStatus(entry.iden, entry.url ?? Paths.orderStatus);
    if (this.entries.get(entry.iden) !== entry) return;
    // 904: the order does not exist for this user and never will; polling it on would never end.
    const final =
      (answer.code === Code.Ok && answer.data.status !== OrderStatus.Pending) || answer.code === Code.NotFound;
    if (final) this.remove(entry.iden);
    try {
      entry.callback(answer);
    } catch (error) {
      console.error('till: order poll callback failed', error);
    }
  }
}
