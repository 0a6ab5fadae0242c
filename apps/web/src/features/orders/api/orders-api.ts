import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { OrderStatus, StorePaths, type Order, type Product } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import { useTill } from '@/lib/till';

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

/** Asks to pay an order again (after a decline, or a payment page left half way). */
export async function payAgain(till: ReturnType<typeof useTill>, iden: string) {
  return unwrap(await till.store.doCheckout({ pastOrder: iden })).data;
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
