import { CdvPlatform, CdvPurchaseAdapter, PurchaseFlow, type StoreMessage } from '@till/client';
import type { Product } from '@till/protocol';
import type { InAppStore, InAppValidator } from '../types';

type CdvStore = ConstructorParameters<typeof CdvPurchaseAdapter>[0];

/** The purchase plugin's store (CdvPurchase v13), which importing capacitor-plugin-cdv-purchase puts on the window. */
export function cdvStore(win: unknown = globalThis): CdvStore | null {
  return (win as { CdvPurchase?: { store?: CdvStore } }).CdvPurchase?.store ?? null;
}

const PLUGIN_PLATFORM: Record<InAppStore, string> = {
  appstore: CdvPlatform.AppStore,
  googleplay: CdvPlatform.GooglePlay,
};

// A message after which the flow has nothing more to say about the order.
const isFinal = (m: StoreMessage) => m.type !== 'ordered' && m.type !== 'approved';

let flow: { store: InAppStore; flow: PurchaseFlow; listeners: Set<(m: StoreMessage) => void> } | undefined;

/**
 * Buys the products one after another through the platform's store: each is ordered by its store
 * id, approved by the store, verified by the server (`validatePurchase`, which pays the order) and
 * then finished. Resolves with the first message that is not a success, or the last one.
 *
 * One flow lives for the app's lifetime: the plugin's store initializes once per run.
 */
export async function buyInApp(options: {
  store: InAppStore;
  cdv: CdvStore;
  products: readonly Product[];
  validator: { validatePurchase: InAppValidator };
  onResume: (listener: () => void) => () => void;
  onMessage?: (message: StoreMessage) => void;
}): Promise<StoreMessage> {
  const items = options.products.map((p) => {
    const id = p.storeIds[options.store];
    if (!id) throw new Error(`${p.title} is not sold in the ${options.store} store`);
    return { id, alias: p.alias, type: p.type };
  });
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
    });
    flow = { store: options.store, flow: created, listeners };
    await created.start();
  } else flow.flow.setProducts(items);
  const { flow: current, listeners } = flow;
  let last: StoreMessage | undefined;
  for (const item of items) {
    last = await new Promise<StoreMessage>((resolve) => {
      const listen = (m: StoreMessage) => {
        options.onMessage?.(m);
        if (!isFinal(m)) return;
        listeners.delete(listen);
        resolve(m);
      };
      listeners.add(listen);
      void current.order(item.id);
    });
    if (last.type !== 'finished') return last;
  }
  if (!last) throw new Error('Nothing to buy');
  return last;
}

/** Forgets the flow (tests start each from a fresh plugin store). */
export function resetInAppFlow(): void {
  flow?.flow.destroy();
  flow = undefined;
}
