import { DEFAULT_LANGUAGE, type Order, type OrderStatusValue, type ShopLanguage } from '@till/protocol';
import { runInTransaction } from '../../db/transaction.js';
import { Failure, fail, type Outcome } from '../../errors.js';
import type { StoreDeps } from './deps.js';
import { listOrders } from './order-queries.js';
import { closeOrder, loadOrder } from './orders.js';
import { withRefunds } from './refunds.js';
import { withSubscriptions } from './subscriptions.js';
import { localizeOrder, localizeOrders } from './titles.js';

/** A buyer's own orders: one, all, and giving up a pending one; their titles in the buyer's language. */
export class BuyerOrders {
  constructor(private readonly deps: StoreDeps) {}

  /** With its refunds and subscription. 904 for an order that is not the buyer's, as for one that does not exist: idens are not probed. */
  async status(
    userId: string,
    iden: string,
    lang: ShopLanguage = DEFAULT_LANGUAGE,
  ): Promise<Outcome<{ status: OrderStatusValue; order: Order }>> {
    const found = await loadOrder(this.deps.db, iden);
    if (!found || found.row.user_id !== userId) return fail.notFound('iden');
    const [order = found.order] = await this.asSeen([await localizeOrder(this.deps.db, found.order, lang)]);
    return { status: order.status, order };
  }

  /** pending -> cancelled, giving back the coupon use it held; 912 when it is no longer pending. */
  async cancel(
    userId: string,
    iden: string,
    lang: ShopLanguage = DEFAULT_LANGUAGE,
  ): Promise<Outcome<{ order: Order }>> {
    const found = await loadOrder(this.deps.db, iden);
    if (!found || found.row.user_id !== userId) return fail.notFound('iden');
    const closed = await runInTransaction(this.deps.db, async (trx) => ({
      order: await closeOrder(trx, iden, 'cancelled', this.deps.now()),
    }));
    return closed instanceof Failure ? closed : { order: await localizeOrder(this.deps.db, closed.order, lang) };
  }

  /** Any order, as its buyer sees it (for the flows, which check ownership themselves). */
  async order(iden: string, lang: ShopLanguage = DEFAULT_LANGUAGE): Promise<Order | undefined> {
    const order = (await loadOrder(this.deps.db, iden))?.order;
    return order && localizeOrder(this.deps.db, order, lang);
  }

  /** The buyer's orders, newest first, each with its refunds and subscription. */
  async list(
    userId: string,
    input: { status?: OrderStatusValue | undefined; page: number; pageSize: number },
    lang: ShopLanguage = DEFAULT_LANGUAGE,
  ) {
    const { orders, total } = await listOrders(this.deps.db, { userId, status: input.status }, input);
    return { orders: await this.asSeen(await localizeOrders(this.deps.db, orders, lang)), total };
  }

  /** Orders as their buyer sees them: with their refunds and the subscriptions they started. */
  async asSeen(orders: Order[]): Promise<Order[]> {
    return withSubscriptions(this.deps, this.deps.db, await withRefunds(this.deps.db, orders));
  }
}
