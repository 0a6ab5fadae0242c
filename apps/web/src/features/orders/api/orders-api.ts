import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { OrderStatus, StorePaths, type Order, type Provider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import { sharedStoreQueries, storeKeys } from '@/lib/store-queries';
import { useTill, type Till } from '@/lib/till';
import { isNativeShell } from '@/platform/platform';

/** The ids of an order's products, each repeated by its quantity (as a cart of them would send). */
const idsOf = (order: Order | undefined) =>
  (order?.items ?? []).flatMap((i) => Array.from({ length: i.quantity }, () => i.productId));

/** The orders' queries. */
export const orderQueries = {
  /** One order (with its refunds). */
  one: (till: Till, iden: string) =>
    queryOptions({
      queryKey: storeKeys.orderOf(iden),
      queryFn: async () => unwrap(await till.store.orderStatus(iden)).data.order,
    }),
  /** The buyer's orders, newest first. */
  list: (till: Till) =>
    queryOptions({
      queryKey: storeKeys.orders,
      queryFn: async () =>
        (await serviceData<{ orders: Order[] }>(till, StorePaths.orders, { page: 1, pageSize: 100 })).orders,
    }),
  /**
   * The routes an order can be paid by now: those the checkout form lists for its products (the
   * same cache entry as the checkout's for the same cart); inside the phone apps none while the
   * server hides the web routes there (`APP_WEB_PAYMENTS`). Credits are not among them: credits pay
   * a new order at once (payWithCredits) and never a pending one.
   */
  paymentRoutes: (till: Till, order: Order | undefined) =>
    queryOptions({
      ...sharedStoreQueries.checkoutForm(till, idsOf(order)),
      enabled: order?.status === OrderStatus.Pending,
      select: (data) =>
        isNativeShell() && data.app.webPayments !== 'shown'
          ? []
          : data.providers.map((p) => p.provider).filter((p) => p !== 'credits'),
    }),
  /** The catalog, to say what each bought product grants (the same cache entry as the store's). */
  catalog: (till: Till, lang: string) => sharedStoreQueries.products(till, lang),
};

/** Shows an order as it now is (after paying it again or cancelling it), and the list as stale. */
export function orderChanged(client: QueryClient, order: Order): void {
  client.setQueryData(storeKeys.orderOf(order.iden), order);
  void client.invalidateQueries({ queryKey: storeKeys.orders });
}

/**
 * One order, kept fresh by the SDK's poller (every 2 s, one timer for all orders) until it is
 * final; the poller drops the entry by itself then.
 */
export function useOrder(iden: string) {
  const till = useTill();
  const client = useQueryClient();
  const query = useQuery(orderQueries.one(till, iden));
  const pending = query.data?.status === OrderStatus.Pending;
  useEffect(() => {
    if (!pending) return;
    const key = orderQueries.one(till, iden).queryKey;
    return till.poller.add({
      iden,
      callback: (res) => {
        if (res.code === 900) client.setQueryData(key, res.data.order);
        // A protocol failure (the order vanished, the session ended) is shown by a fresh fetch.
        else if (res.code !== 905) void client.invalidateQueries({ queryKey: key });
      },
    });
  }, [till, client, iden, pending]);
  return query;
}

/**
 * Asks to pay a pending order again (after a decline, or a payment page left half way), the same
 * way or another: the server moves the order to the route asked for.
 */
export async function payAgain(till: Till, iden: string, provider?: Provider) {
  return unwrap(await till.store.doCheckout({ pastOrder: iden, ...(provider ? { provider } : {}) })).data;
}

/** The routes a pending order can be paid by now (see {@link orderQueries}). */
export function usePaymentRoutes(order: Order | undefined) {
  return useQuery(orderQueries.paymentRoutes(useTill(), order));
}

/** Gives up a pending order; its coupon use is given back. */
export async function cancelOrder(till: Till, iden: string) {
  return (await serviceData<{ order: Order }>(till, StorePaths.cancelOrder, { iden })).order;
}

/** The buyer's orders, newest first. */
export function useOrders() {
  return useQuery(orderQueries.list(useTill()));
}

/** The catalog in the interface's language, to say what each bought product grants. */
export function useCatalog() {
  const { i18n } = useTranslation();
  return useQuery(orderQueries.catalog(useTill(), i18n.language));
}

/** Ends the subscription a paid order started at its period's end (the card route); the order as it now is. */
export async function endSubscription(till: Till, iden: string) {
  return (await serviceData<{ order: Order }>(till, StorePaths.endSubscription, { iden })).order;
}
