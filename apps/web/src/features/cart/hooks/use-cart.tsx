import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { CartLine, CartStore } from './cart-store';

const CartContext = createContext<CartStore | null>(null);

export function CartProvider({ store, children }: { store: CartStore; children: ReactNode }) {
  return <CartContext.Provider value={store}>{children}</CartContext.Provider>;
}

export function useCartStore(): CartStore {
  const store = useContext(CartContext);
  if (!store) throw new Error('useCart needs a CartProvider');
  return store;
}

/** The cart's lines, re-rendering on every change. */
export function useCart(): { lines: readonly CartLine[]; count: number; store: CartStore } {
  const store = useCartStore();
  const lines = useSyncExternalStore(
    (cb) => store.subscribe(cb),
    () => store.snapshot,
  );
  return { lines, count: lines.reduce((n, l) => n + l.quantity, 0), store };
}
