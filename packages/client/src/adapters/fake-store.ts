import { ProductType } from '@till/protocol';
import type {
  AdapterOrderResult,
  AdapterProductState,
  AdapterTransaction,
  StoreAdapter,
  StoreAdapterEvent,
  StoreProductDefinition,
} from '../store-adapter.js';

/**
 * What the fake store does when asked to buy: approve (with a transaction, or without one), let the
 * user cancel, fail the order, or open the purchase and wait for the test to act.
 *
 * @example
 * adapter.outcome = 'cancel';
 */
export type FakeOrderOutcome = 'approve' | 'approveWithoutTransaction' | 'cancel' | 'fail' | 'wait';

/**
 * Options of {@link FakeStoreAdapter}.
 *
 * @example
 * const adapter = new FakeStoreAdapter({ outcome: 'fail', unknownProducts: ['com.example.gone'] });
 */
export interface FakeStoreOptions {
  /** Outcome of every order until changed; default `approve`. */
  outcome?: FakeOrderOutcome;
  /** Product ids the store does not know (loaded but not valid). */
  unknownProducts?: readonly string[];
  /** Platform named in transactions; default `test`. */
  platform?: string;
  /** Make `finish` fail. */
  failFinish?: boolean;
  /** How transaction ids start; default `fake`. Each fake counts from 1, so two against one server need their own. */
  idPrefix?: string;
}

/**
 * A scripted in-app store for tests: products load as valid (unless listed unknown), orders follow
 * the scripted outcome, and every call is recorded. Its transactions are what the server's `test`
 * platform validator expects.
 *
 * @example
 * const adapter = new FakeStoreAdapter({ outcome: 'cancel' });
 * const flow = new PurchaseFlow({ adapter, store, onMessage });
 * await flow.start();
 * await flow.order(['pro']);
 * adapter.orders; // ['pro']
 */
export class FakeStoreAdapter implements StoreAdapter {
  outcome: FakeOrderOutcome;
  failFinish: boolean;
  readonly registered: StoreProductDefinition[] = [];
  readonly orders: string[] = [];
  readonly finished: AdapterTransaction[] = [];
  initializeCount = 0;
  restoreCount = 0;
  refreshCount = 0;
  private readonly listeners = new Set<(event: StoreAdapterEvent) => void>();
  private readonly unknown: Set<string>;
  private readonly platform: string;
  private readonly owned = new Set<string>();
  private serial = 0;
  private readonly idPrefix: string;

  constructor(options: FakeStoreOptions = {}) {
    this.outcome = options.outcome ?? 'approve';
    this.failFinish = options.failFinish ?? false;
    this.unknown = new Set(options.unknownProducts ?? []);
    this.platform = options.platform ?? 'test';
    this.idPrefix = options.idPrefix ?? 'fake';
  }

  register(products: readonly StoreProductDefinition[]): void {
    this.registered.push(...products);
  }

  async initialize(): Promise<void> {
    this.initializeCount += 1;
    this.announceProducts();
  }

  async refresh(): Promise<void> {
    this.refreshCount += 1;
    this.announceProducts();
  }

  async order(productId: string): Promise<AdapterOrderResult> {
    this.orders.push(productId);
    switch (this.outcome) {
      case 'cancel':
        return { ok: false, cancelled: true, message: 'Purchase flow has been cancelled by the user' };
      case 'fail':
        return { ok: false, cancelled: false, message: 'Purchase failed', code: 6777003 };
      case 'wait':
        return { ok: true };
      case 'approveWithoutTransaction':
        this.emit({ type: 'approved', transaction: null, productId });
        return { ok: true };
      case 'approve':
        this.emit({ type: 'approved', transaction: this.transaction(productId) });
        return { ok: true };
    }
  }

  /** Answers the finished transactions of products that stay owned (not consumables). */
  async restore(): Promise<AdapterTransaction[]> {
    this.restoreCount += 1;
    return this.finished.filter((t) => t.productIds.some((id) => this.owned.has(id)));
  }

  async finish(transaction: AdapterTransaction): Promise<void> {
    if (this.failFinish) throw new Error('The store could not finish the transaction');
    this.finished.push(transaction);
    for (const id of transaction.productIds) {
      const def = this.registered.find((p) => p.id === id);
      // Consumables can be bought again; other types stay owned.
      if (def && def.type !== ProductType.Consumable) this.owned.add(id);
    }
    this.announceProducts();
  }

  subscribe(listener: (event: StoreAdapterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Makes a transaction the way an approval would (to emit later, or twice).
   *
   * @example
   * adapter.emit({ type: 'approved', transaction: adapter.transaction('pro') });
   */
  transaction(productId: string): AdapterTransaction {
    this.serial += 1;
    const id = `${this.idPrefix}-${productId}-${this.serial}`;
    return {
      id,
      productIds: [productId],
      platform: this.platform,
      data: { platform: this.platform, transactionId: id, products: [{ id: productId }], state: 'approved' },
    };
  }

  /**
   * Sends any event, as the store would.
   *
   * @example
   * adapter.emit({ type: 'error', message: 'Store unavailable' });
   */
  emit(event: StoreAdapterEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private announceProducts(): void {
    for (const p of this.registered) {
      const valid = !this.unknown.has(p.id);
      const owned = this.owned.has(p.id);
      const product: AdapterProductState = {
        id: p.id,
        loaded: true,
        valid,
        canPurchase: valid && !owned,
        owned,
        title: p.alias,
      };
      this.emit({ type: 'product', product });
    }
  }
}
