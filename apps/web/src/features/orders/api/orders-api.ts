import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { OrderStatus, StorePaths, type Order, type Product, type Provider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import { useTill } from '@/lib/till';
import { isNativeShell } from '@/platform/platform';

const orderKey = (iden: string) => ['store', 'order', iden] as const;

/**
 * One order, kept fresh by the SDK's poller (every 2 s, one timer for all orders) until it is
 * final; the poller drops the entry by itself then.
 */
export function useOrder(iden: string) {
  const till = useTill();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: orderKey(iden),
    queryFn: async () => unwrap(await till.store.orderStatus(iden)).data.order,
  });
  const pending = query.data?.status === OrderStatus.Pending;
  useEffect(() => {
    if (!pending) return;
    return till.poller.add({
      iden,
      callback: (res) => {
        if (res.code === 900) client.setQueryData(orderKey(iden), res.data.order);
        // A protocol failure (the order vanished, the session ended) is shown by a fresh fetch.
        else if (res.code !== 905) void client.invalidateQueries({ queryKey: orderKey(iden) });
      },
    });
  }, [till, client, iden, pending]);
  return query;
}

/**
 * Asks to pay a pending order again (after a decline, or a payment page left half way), the same
 * way or another: the server moves the order to the route asked for.
 */
export async function payAgain(till: ReturnType<typeof useTill>, iden: string, provider?: Provider) {
  return unwrap(await till.store.doCheckout({ pastOrder: iden, ...(provider ? { provider } : {}) })).data;
}

/**
 * The routes an order can be paid by now: those the checkout form lists for its products (the same
 * cache entry as the checkout's for the same cart); inside the phone apps none while the server
 * hides the web routes there (`APP_WEB_PAYMENTS`). Credits are not among them: credits pay a new
 * order at once (payWithCredits) and never a pending one.
 */
export function usePaymentRoutes(order: Order | undefined) {
  const till = useTill();
  const ids = (order?.items ?? []).flatMap((i) => Array.from({ length: i.quantity }, () => i.productId));
  return useQuery({
    queryKey: ['store', 'checkout-form', ids.join(',')],
    queryFn: async () => unwrap(await till.store.getCheckoutForm(ids)).data,
    enabled: order?.status === OrderStatus.Pending,
    select: (data) =>
      isNativeShell() && data.app.webPayments !== 'shown'
        ? []
        : data.providers.map((p) => p.provider).filter((p) => p !== 'credits'),
  });
}

/** Gives up a pending order; its coupon use is given back. */
export async function cancelOrder(till: ReturnType<typeof useTill>, iden: string) {
  return (await serviceData<{ order: Order }>(till, StorePaths.cancelOrder, { iden })).order;
}

/** The buyer's orders, newest first. */
export function useOrders() {
  const till = useTill();
  return useQuery({
    queryKey: ['store', 'orders'],
    queryFn: async () =>
      (await serviceData<{ orders: Order[] }>(till, StorePaths.orders, { page: 1, pageSize: 100 })).orders,
  });
}

/** The catalog, to say what each bought product grants (the same cache entry as the store's). */
export function useCatalog() {
  const till = useTill();
  return useQuery({
    queryKey: ['store', 'products'],
    queryFn: async () =>
      (await serviceData<{ products: Product[] }>(till, StorePaths.products, {}, { token: 'optional' })).products,
  });
}
