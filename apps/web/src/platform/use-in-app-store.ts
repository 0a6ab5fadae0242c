import { useEffect, useMemo, useState } from 'react';
import type { PurchaseProduct } from '@till/client';
import type { AppPayments, Money, Product } from '@till/protocol';
import { useAppPayments } from '@/lib/app-payments';
import { payableWithoutStore } from '@/lib/payment';
import { getPlatform, isNativeShell } from './platform';
import type { InAppStore } from './types';

/**
 * What the app's store says about a catalog product: offered, with the store's own price (the
 * buyer's currency and locale), or why it is not: this store does not sell it (`notSold`: the app
 * pays it another way, with credits or a web route the server shows in the apps; `notInApp`: the
 * app cannot sell it at all, since the stores' rules keep the web routes out), has not loaded it,
 * does not know it (`valid` false), or cannot sell it now (`canPurchase` false: owned already, a
 * purchase under way).
 */
export type InAppOffer =
  | { status: 'offered'; price: string | null; money: Money | null }
  | { status: 'notSold' | 'notInApp' | 'notLoaded' | 'invalid' | 'cannotPurchase' };

/** The app's store and its offers. */
export interface InAppStoreView {
  store: InAppStore;
  /** What the server lets the apps offer; undefined until known (taken as web routes hidden). */
  app: AppPayments | undefined;
  offer(product: Product): InAppOffer;
}

/** The store's price in the minor units of its currency (as the server's prices are), to add up. */
function moneyOf(p: PurchaseProduct): Money | null {
  if (p.priceMicros === undefined || !p.currency) return null;
  let digits: number;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: p.currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // A currency code Intl does not know: the price cannot be added up.
    return null;
  }
  return { amount: Math.round(p.priceMicros / 10 ** (6 - digits)), currency: p.currency };
}

/**
 * A product's offer in `store`, from the store's products by store id and what the server lets the
 * apps offer (`app`).
 */
export function offerOf(
  product: Product,
  store: InAppStore,
  products: ReadonlyMap<string, PurchaseProduct>,
  app?: AppPayments,
): InAppOffer {
  // A store whose purchases the server does not verify sells nothing in this app.
  const storeId = app && !app.stores.includes(store) ? undefined : product.storeIds[store];
  if (!storeId) return { status: payableWithoutStore(product, app) ? 'notSold' : 'notInApp' };
  const p = products.get(storeId);
  if (!p || !p.loaded) return { status: 'notLoaded' };
  if (!p.valid) return { status: 'invalid' };
  if (!p.canPurchase) return { status: 'cannotPurchase' };
  return { status: 'offered', price: p.price ?? null, money: moneyOf(p) };
}

/**
 * The app's store with what it says about each product, kept current; null in a browser or a shell
 * without a store.
 */
export function useInAppStore(): InAppStoreView | null {
  const app = useAppPayments();
  const [view, setView] = useState<{
    store: InAppStore;
    offer: (product: Product, app: AppPayments | undefined) => InAppOffer;
  } | null>(null);
  useEffect(() => {
    // A browser has no in-app store: the catalog's cards do not load the platform's module to
    // hear that, on the first screen.
    if (!isNativeShell()) return;
    let stop: (() => void) | null = null;
    let live = true;
    void getPlatform().then((platform) => {
      const store = platform.inAppStore();
      if (!live || !store) return;
      const show = (products: readonly PurchaseProduct[]) => {
        const byId = new Map(products.map((p) => [p.id, p]));
        setView({ store, offer: (product, payments) => offerOf(product, store, byId, payments) });
      };
      show([]);
      stop = platform.watchInAppProducts(show);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, []);
  return useMemo(
    () => (view ? { store: view.store, app, offer: (product) => view.offer(product, app) } : null),
    [view, app],
  );
}
