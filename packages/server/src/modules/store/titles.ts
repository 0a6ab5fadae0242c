import type { Order, ShopLanguage } from '@till/protocol';
import type { Executor } from '../../db/rows.js';
import { textsIn } from './catalog.js';

/**
 * Lines that name a product by id, with each title in `lang` where the product has a translation
 * there, and as they came where it has none (the default language's title). Order items keep the
 * default language's title as it was at purchase; every answer that shows them to a buyer (the order
 * calls, the checkout, the payment page, mails) reads them through here, in the buyer's language.
 *
 * @example
 * const lines = await titlesIn(db, order.items, 'de');
 */
export async function titlesIn<T extends { productId: string; title: string }>(
  x: Executor,
  lines: readonly T[],
  lang: ShopLanguage,
): Promise<T[]> {
  const texts = await textsIn(x, [...new Set(lines.map((l) => l.productId))], lang);
  if (!texts.size) return [...lines];
  return lines.map((l) => {
    const title = texts.get(l.productId)?.title;
    return title ? { ...l, title } : l;
  });
}

/** Orders with their items' titles in `lang` (see {@link titlesIn}): one query for all of them. */
export async function localizeOrders(x: Executor, orders: readonly Order[], lang: ShopLanguage): Promise<Order[]> {
  const texts = await textsIn(x, [...new Set(orders.flatMap((o) => o.items.map((i) => i.productId)))], lang);
  if (!texts.size) return [...orders];
  return orders.map((o) => ({
    ...o,
    items: o.items.map((i) => ({ ...i, title: texts.get(i.productId)?.title || i.title })),
  }));
}

/** One order with its items' titles in `lang` (see {@link titlesIn}). */
export async function localizeOrder(x: Executor, order: Order, lang: ShopLanguage): Promise<Order> {
  const [localized] = await localizeOrders(x, [order], lang);
  return localized ?? order;
}
