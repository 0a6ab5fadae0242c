import { Code, Paths, ProductType, type ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import type { AdapterTransaction, StoreAdapterEvent } from './store-adapter.js';
import { TransactionStates, type TransactionState } from './purchase-transactions.js';
import type {
  PurchaseFlowOptions,
  PurchaseProduct,
  PurchaseProductInput,
  PurchaseResult,
  RestoreResult,
  StoreMessage,
} from './purchase-types.js';
import { PURCHASE_NOT_VERIFIED, verifiedProducts } from './purchase-verification.js';

/**
 * The in-app purchase flow over a {@link StoreAdapter}: keeps the products' `loaded`, `valid` and
 * `canPurchase` current, orders the first selected product (799), and for each approved transaction
 * either verifies it on the server (801, then finish once verified, 800) or, with `forceVerify`
 * off, finishes it at once (800). Valid means code 900 and `data.result` 1; then the products named
 * in `data.products` (ids joined with `;`) fire their callbacks. Anything else is reported as
 * "We couldn't verify the purchase" and the transaction is left unfinished.
 *
 * @example
 * const flow = new PurchaseFlow({
 *   adapter: new CdvPurchaseAdapter(window.CdvPurchase.store, { platform: 'test' }),
 *   store: till.store,
 *   products: [{ id: 'com.example.pro', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: () => unlockPro() }],
 *   onMessage: (m) => console.log(m.type, m.code),
 * });
 * await flow.start();
 * await flow.order(['com.example.pro']);
 */
export class PurchaseFlow {
  private readonly options: PurchaseFlowOptions;
  private readonly items = new Map<string, PurchaseProduct>();
  private readonly callbacks = new Map<string, PurchaseProductInput['callback']>();
  private readonly transactions = new TransactionStates();
  private readonly stops: (() => void)[] = [];
  private readonly waiters = new Set<(message: StoreMessage) => void>();
  private started = false;

  constructor(options: PurchaseFlowOptions) {
    this.options = options;
    for (const p of options.products ?? []) this.addProduct(p);
  }

  /** The products with their current state. */
  get products(): readonly PurchaseProduct[] {
    return [...this.items.values()];
  }

  /** Where a transaction stands, by its id. */
  transactionState(transactionId: string): TransactionState | undefined {
    return this.transactions.get(transactionId);
  }

  /**
   * Registers the products with the store, listens to it, and loads it.
   *
   * @example
   * await flow.start();
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { adapter } = this.options;
    this.stops.push(adapter.subscribe((event) => this.handle(event)));
    if (this.options.onResume) this.stops.push(this.options.onResume(() => void this.resume()));
    adapter.register(this.products.map(({ id, alias, type }) => ({ id, alias, type })));
    await this.guard(() => adapter.initialize());
  }

  /**
   * Adds products after start (they are registered with the store at once).
   *
   * @example
   * flow.setProducts([{ id: 'com.example.coins', alias: 'coins', type: ProductType.Consumable }]);
   */
  setProducts(products: readonly PurchaseProductInput[]): void {
    const fresh = products.filter((p) => !this.items.has(p.id));
    for (const p of products) this.addProduct(p);
    if (this.started && fresh.length)
      this.options.adapter.register(fresh.map(({ id, alias, type }) => ({ id, alias, type })));
    this.productsChanged();
  }

  /**
   * Reloads products and pending transactions from the store.
   *
   * @example
   * await flow.refresh();
   */
  refresh(): Promise<void> {
    return this.guard(() => this.options.adapter.refresh());
  }

  /**
   * What the app calls when it comes back to the foreground: the store may have finished a purchase
   * meanwhile, so it is refreshed.
   *
   * @example
   * App.addListener('resume', () => flow.resume());
   */
  resume(): Promise<void> {
    return this.refresh();
  }

  /**
   * Orders the first selected product (by id or alias) and posts 799; an order that fails posts
   * 804 with `{}`, one the user cancels posts `cancelled`.
   *
   * @example
   * await flow.order(selectedIds);
   */
  async order(selected: readonly string[] | string): Promise<void> {
    const first = typeof selected === 'string' ? selected : selected[0];
    const product = first === undefined ? undefined : this.find(first);
    if (!product) {
      this.post({ type: 'orderError', code: Code.StoreOrderError, data: {} });
      return;
    }
    this.post({ type: 'ordered', code: Code.StoreOrdered, data: { productId: product.id } });
    let result;
    try {
      result = await this.options.adapter.order(product.id);
    } catch {
      result = { ok: false as const, cancelled: false, message: 'order failed' };
    }
    if (result.ok) return;
    if (result.cancelled) this.post({ type: 'cancelled', data: { productId: product.id } });
    else this.post({ type: 'orderError', code: Code.StoreOrderError, data: {} });
  }

  /**
   * Buys `quantity` units of one product (by id or alias) and resolves once the store and the
   * server are done with them. A consumable is bought one store purchase per unit, each verified
   * and finished before the next is ordered: Google Play lets only the buyer pick a quantity in its
   * own dialog, so an app cannot order several units at once on both platforms, and a consumable
   * cannot be bought again there until the last one is consumed. A non-consumable or a
   * subscription is bought at most once: asking for more is refused before anything is ordered.
   * Stops at the first unit that is not bought (cancelled, failed, not verified).
   *
   * @example
   * const { bought, message } = await flow.purchase('credits-100', 3);
   */
  async purchase(idOrAlias: string, quantity = 1): Promise<PurchaseResult> {
    const product = this.find(idOrAlias);
    if (product && quantity > 1 && product.type !== ProductType.Consumable)
      return { bought: 0, message: null, refused: 'onlyOne' };
    let bought = 0;
    let message: StoreMessage | null = null;
    const units = Math.max(0, Math.floor(quantity));
    while (bought < units) {
      message = await this.orderAndWait(idOrAlias, product?.id);
      if (message.type !== 'finished') break;
      bought += 1;
    }
    return { bought, message };
  }

  /**
   * Restores the buyer's purchases: the store replays what the buyer owns, and each owned
   * transaction goes to the server again through the same validation as a purchase. The server
   * knows a transaction it has granted and grants nothing twice; its answer (`result: 1`) still
   * names the products, whose callbacks run as after a purchase. A store that fails to restore
   * posts an error and answers nothing restored.
   *
   * @example
   * const { restored } = await flow.restore();
   */
  async restore(): Promise<RestoreResult> {
    let owned: AdapterTransaction[];
    try {
      owned = await this.options.adapter.restore();
    } catch (error) {
      this.post({ type: 'error', data: { message: messageOf(error) } });
      return { restored: [] };
    }
    const restored: RestoreResult['restored'] = [];
    for (const transaction of owned) {
      const products = await this.verifyAgain(transaction);
      restored.push({
        productId: transaction.productIds[0] ?? '',
        transactionId: transaction.id,
        verified: products !== null,
        products: products ?? [],
      });
    }
    return { restored };
  }

  // The validation of verify(), answering the products verified (null when not verified).
  private async verifyAgain(transaction: AdapterTransaction): Promise<string[] | null> {
    const answer = await this.askServer(transaction);
    if (!answer) return null;
    const ids = verifiedProducts(answer);
    if (!ids) return null;
    for (const id of ids) {
      const product = this.find(id);
      const callback = product && this.callbacks.get(product.id);
      if (product && callback) this.safely(() => callback(product, transaction));
    }
    return ids;
  }

  // Orders one unit and answers the flow's last word about it: finished, cancelled or failed.
  private orderAndWait(idOrAlias: string, productId: string | undefined): Promise<StoreMessage> {
    return new Promise((resolve) => {
      const wait = (m: StoreMessage) => {
        if (m.type === 'ordered' || m.type === 'approved') return;
        // Another product's news (a pending purchase approved on resume) is not this unit's.
        if ('productId' in m.data && m.data.productId !== undefined && m.data.productId !== productId) return;
        this.waiters.delete(wait);
        resolve(m);
      };
      this.waiters.add(wait);
      void this.order(idOrAlias);
    });
  }

  /**
   * Stops listening to the store and to resume events.
   *
   * @example
   * flow.destroy();
   */
  destroy(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.started = false;
  }

  private addProduct(input: PurchaseProductInput): void {
    const existing = this.items.get(input.id);
    this.items.set(input.id, {
      id: input.id,
      alias: input.alias,
      type: input.type,
      loaded: existing?.loaded ?? false,
      valid: existing?.valid ?? false,
      canPurchase: existing?.canPurchase ?? false,
      owned: existing?.owned ?? false,
      ...(existing?.title !== undefined ? { title: existing.title } : {}),
      ...(existing?.price !== undefined ? { price: existing.price } : {}),
      ...(existing?.priceMicros !== undefined ? { priceMicros: existing.priceMicros } : {}),
      ...(existing?.currency !== undefined ? { currency: existing.currency } : {}),
    });
    this.callbacks.set(input.id, input.callback);
  }

  private find(idOrAlias: string): PurchaseProduct | undefined {
    return this.items.get(idOrAlias) ?? this.products.find((p) => p.alias === idOrAlias);
  }

  private handle(event: StoreAdapterEvent): void {
    switch (event.type) {
      case 'product': {
        const current = this.items.get(event.product.id);
        if (!current) return;
        this.items.set(current.id, { ...current, ...event.product, owned: event.product.owned ?? current.owned });
        this.productsChanged();
        return;
      }
      case 'approved':
        void this.approved(event.transaction);
        return;
      case 'cancelled':
        this.post({ type: 'cancelled', data: event.productId !== undefined ? { productId: event.productId } : {} });
        return;
      case 'error':
        this.post({ type: 'error', data: errorData(event.message, event.productId, event.code) });
        return;
    }
  }

  private async approved(transaction: AdapterTransaction | null): Promise<void> {
    if (!transaction) {
      this.post({ type: 'error', data: { message: PURCHASE_NOT_VERIFIED } });
      return;
    }
    // Stores report the same approval more than once: only a new one, or one coming back after a
    // rejection or a failed finish, is acted on.
    if (!this.transactions.approve(transaction.id)) return;
    const productId = transaction.productIds[0] ?? '';
    const ids = { productId, transactionId: transaction.id };

    if (this.options.forceVerify === false) {
      await this.finish(transaction, ids);
      return;
    }
    this.post({ type: 'approved', code: Code.StoreApproved, data: ids });
    this.move(transaction.id, 'verifying');
    const valid = await this.verify(transaction);
    this.move(transaction.id, valid ? 'verified' : 'rejected');
    if (!valid) {
      this.post({ type: 'error', data: { message: PURCHASE_NOT_VERIFIED, productId } });
      return;
    }
    await this.finish(transaction, ids);
  }

  /** The server's validation of a transaction, or null when the call itself failed. */
  private async askServer(transaction: AdapterTransaction): Promise<DataAnswer<ValidatePurchaseData> | null> {
    try {
      return await this.options.store.validatePurchase(
        transaction.data,
        this.options.validatorPath ?? Paths.validatePurchase,
      );
    } catch {
      return null;
    }
  }

  /** Asks the server; answers whether the transaction may be finished. */
  private async verify(transaction: AdapterTransaction): Promise<boolean> {
    const answer = await this.askServer(transaction);
    if (!answer) return false;
    const { onValidation } = this.options;
    if (onValidation) {
      // The callback variant: the app gets `data` and decides what the products do; the
      // transaction is finished only when `data.result` is 1.
      if (answer.code !== Code.Ok) return false;
      const data = answer.data;
      this.safely(() => onValidation(data, transaction));
      return data.result === 1;
    }
    const ids = verifiedProducts(answer);
    if (!ids) return false;
    for (const id of ids) {
      const product = this.find(id);
      const callback = product && this.callbacks.get(product.id);
      if (product && callback) this.safely(() => callback(product, transaction));
    }
    return true;
  }

  private async finish(
    transaction: AdapterTransaction,
    ids: { productId: string; transactionId: string },
  ): Promise<void> {
    this.move(transaction.id, 'finishing');
    try {
      await this.options.adapter.finish(transaction);
    } catch (error) {
      this.move(transaction.id, 'failed');
      this.post({ type: 'error', data: errorData(messageOf(error), ids.productId) });
      return;
    }
    this.move(transaction.id, 'finished');
    this.post({ type: 'finished', code: Code.StoreFinished, data: ids });
  }

  private move(transactionId: string, to: TransactionState): boolean {
    return this.transactions.move(transactionId, to);
  }

  private productsChanged(): void {
    const products = this.products;
    this.safely(() => this.options.onProductsChange?.(products));
  }

  private post(message: StoreMessage): void {
    this.safely(() => this.options.onMessage(message));
    for (const wait of [...this.waiters]) wait(message);
  }

  private async guard(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.post({ type: 'error', data: { message: messageOf(error) } });
    }
  }

  // The parent's handlers are app code; a throw there must not stop a purchase half way.
  private safely(run: () => void): void {
    try {
      run();
    } catch (error) {
      console.error('till: purchase flow handler failed', error);
    }
  }
}

function errorData(
  message: string,
  productId?: string,
  code?: number,
): { message: string; productId?: string; code?: number } {
  return { message, ...(productId !== undefined ? { productId } : {}), ...(code !== undefined ? { code } : {}) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
