import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { StorePaths, type CheckoutPreviewData, type Provider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import { sharedStoreQueries, storeKeys } from '@/lib/store-queries';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';
import type { CartLine } from '../hooks/cart-store';
import { cartIds } from '../hooks/cart-store';

/** The checkout's queries. */
export const checkoutQueries = {
  /**
   * Products, total and payment routes for the cart (public; the total is before any coupon). The
   * same entry a pending order of the same products is paid again by.
   */
  form: (till: Till, lines: readonly CartLine[]) =>
    queryOptions({ ...sharedStoreQueries.checkoutForm(till, cartIds(lines)), placeholderData: keepPreviousData }),
  /** A coupon, checked as it is typed; only signed in (who uses it counts). */
  coupon: (till: Till, code: string, signedIn: boolean) =>
    queryOptions({
      queryKey: storeKeys.coupon(code),
      queryFn: async () => unwrap(await till.store.getCoupon(code)).data.coupon,
      enabled: signedIn && code.length > 0,
      retry: false,
      staleTime: 60_000,
    }),
  /** The server's summary of the cart with the coupon applied; see {@link useCheckoutPreview}. */
  preview: (till: Till, lines: readonly CartLine[], couponCode: string, signedIn: boolean) => {
    const ids = cartIds(lines);
    return queryOptions({
      queryKey: storeKeys.checkoutPreview(ids, couponCode),
      queryFn: async () =>
        serviceData<CheckoutPreviewData>(till, StorePaths.checkoutPreview, {
          products: ids.join(';'),
          ...(couponCode ? { couponCode } : {}),
        }),
      enabled: signedIn && ids.length > 0,
      placeholderData: keepPreviousData,
      retry: false,
    });
  },
};

/** Products, total and payment routes for the cart (public; the total is before any coupon). */
export function useCheckoutForm(lines: readonly CartLine[]) {
  return useQuery(checkoutQueries.form(useTill(), lines));
}

/** Checks a coupon as it is typed. Anonymous visitors are told it will be checked after sign-in. */
export function useCouponCheck(code: string, signedIn: boolean) {
  return useQuery(checkoutQueries.coupon(useTill(), code, signedIn));
}

/**
 * Creates the order and answers how to pay it. Made before sign-in, the SDK holds the call and
 * sends it (with the new token) once the visitor has signed in.
 */
export async function checkout(till: Till, lines: readonly CartLine[], couponCode: string, provider: Provider) {
  const res = await till.store.doCheckout({
    products: cartIds(lines),
    ...(couponCode ? { couponCode } : {}),
    provider,
  });
  return unwrap(res).data;
}

/** Pays the whole cart with credits; the order comes back already paid. */
export async function payWithCredits(till: Till, lines: readonly CartLine[], couponCode: string) {
  const res = await till.store.payWithCredits(
    lines.map((l) => ({ id: l.id, quantity: l.quantity })),
    couponCode ? { couponCode } : {},
  );
  return unwrap(res).data;
}

/**
 * The server's summary of the cart with the coupon applied (checkoutPreview): lines with their
 * quantities, the discount and the total doCheckout will charge, and the reason a coupon cannot be
 * used. Signed-in buyers only: a coupon's checks depend on who uses it.
 */
export function useCheckoutPreview(lines: readonly CartLine[], couponCode: string, signedIn: boolean) {
  return useQuery(checkoutQueries.preview(useTill(), lines, couponCode, signedIn));
}
