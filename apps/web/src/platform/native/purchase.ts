import {
  CdvPlatform,
  CdvPurchaseAdapter,
  PurchaseFlow,
  type PurchaseProduct,
  type RestoreResult,
  type StoreMessage,
} from '@till/client';
import { ProductType, type Product } from '@till/protocol';
import type { InAppPurchase, InAppStore, InAppValidator } from '../types';

type CdvStore = ConstructorParameters<typeof CdvPurchaseAdapter>[0];

/** The purchase plugin's store (CdvPurchase v13), which importing capacitor-plugin-cdv-purchase puts on the window. */
export function cdvStore(win: unknown = globalThis): CdvStore | null {
  return (win as { CdvPurchase?: { store?: CdvStore } }).CdvPurchase?.store ?? null;
}

const PLUGIN_PLATFORM: Record<InAppStore, string> = {
  appstore: CdvPlatform.AppStore,
  googleplay: CdvPlatform.GooglePlay,
};

let flow: { store: InAppStore; flow: PurchaseFlow; listeners: Set<(m: StoreMessage) => void> } | undefined;

// What the store says about its products (loaded, valid, canPurchase, its own price), for the pages.
const productWatchers = new Set<(products: readonly PurchaseProduct[]) => void>();

/**
 * Calls `listener` with the store's products now (once the flow runs) and whenever they change;
 * answers a function that stops it.
 */
export function watchInAppProducts(listener: (products: readonly PurchaseProduct[]) => void): () => void {
  productWatchers.add(listener);
  if (flow) listener(flow.flow.products);
  return () => void productWatchers.delete(listener);
}

interface FlowOptions {
  store: InAppStore;
  cdv: CdvStore;
  validator: { validatePurchase: InAppValidator };
  onResume: (listener: () => void) => () => void;
}

const itemsOf = (store: InAppStore, products: readonly Product[]) =>
  products.flatMap((p) => {
    const id = p.storeIds[store];
    return id ? [{ id, alias: p.alias, type: p.type }] : [];
  });

/** The run's one flow, made and started with these products the first time, else given them. */
async function ensureFlow(options: FlowOptions, items: ReturnType<typeof itemsOf>) {
  if (!flow || flow.store !== options.store) {
    const listeners = new Set<(m: StoreMessage) => void>();
    const created = new PurchaseFlow({
      adapter: new CdvPurchaseAdapter(options.cdv, { platform: PLUGIN_PLATFORM[options.store] }),
      store: options.validator,
      onMessage: (m) => {
        for (const l of listeners) l(m);
      },
      products: items,
      onResume: options.onResume,
      onProductsChange: (products) => {
        for (const w of [...productWatchers]) w(products);
      },
    });
    flow = { store: options.store, flow: created, listeners };
    await created.start();
  } else flow.flow.setProducts(items);
  return flow;
}

/**
 * Starts the in-app store with the catalog's products as the app starts, so that every return to
 * the foreground refreshes it (prices, a purchase approved while the app was away) from the first
 * one on, not only after the first purchase. Products without an id in this store are left out.
 */
export async function startInAppStore(options: FlowOptions & { products: readonly Product[] }): Promise<void> {
  await ensureFlow(options, itemsOf(options.store, options.products));
}

/**
 * Buys the products one after another through the platform's store: each is ordered by its store
 * id, approved by the store, verified by the server (`validatePurchase`, which pays the order) and
 * then finished. A consumable is bought as many times as `quantities` asks (by catalog id, default
 * one), one verified store purchase per unit; a non-consumable or a subscription at most once, and
 * asking for more is refused before anything is ordered. Stops at the first unit not bought, and
 * answers that unit's message (or the last one) with how many units of each product were bought.
 *
 * One flow lives for the app's lifetime: the plugin's store initializes once per run.
 */
export async function buyInApp(
  options: FlowOptions & {
    products: readonly Product[];
    quantities?: Readonly<Record<string, number>>;
    onMessage?: (message: StoreMessage) => void;
  },
): Promise<InAppPurchase> {
  const quantity = (p: Product) => options.quantities?.[p.id] ?? 1;
  for (const p of options.products) {
    if (!p.storeIds[options.store]) throw new Error(`${p.title} is not sold in the ${options.store} store`);
    if (quantity(p) > 1 && p.type !== ProductType.Consumable)
      throw new Error(`${p.title} can be bought only once in the ${options.store} store`);
  }
  const items = itemsOf(options.store, options.products);
  await ensureFlow(options, items);
  if (!flow) throw new Error('The in-app store did not start');
  const { flow: current, listeners } = flow;
  const listen = (m: StoreMessage) => options.onMessage?.(m);
  listeners.add(listen);
  const bought: Record<string, number> = {};
  let last: StoreMessage | null = null;
  try {
    for (const p of options.products) {
      const result = await current.purchase(p.storeIds[options.store] ?? '', quantity(p));
      if (result.bought) bought[p.id] = result.bought;
      last = result.message ?? last;
      if (!last || last.type !== 'finished') break;
    }
  } finally {
    listeners.delete(listen);
  }
  if (!last) throw new Error('Nothing to buy');
  return { message: last, bought };
}

/**
 * Restores the buyer's purchases: the store replays what the buyer owns, and each owned transaction
 * is verified by the server again as a purchase is (which grants nothing twice).
 */
export async function restoreInApp(options: FlowOptions): Promise<RestoreResult> {
  const current = await ensureFlow(options, []);
  return current.flow.restore();
}

/** Forgets the flow (tests start each from a fresh plugin store). */
export function resetInAppFlow(): void {
  flow?.flow.destroy();
  flow = undefined;
}
