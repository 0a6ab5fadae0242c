import { useQuery } from '@tanstack/react-query';
import { StorePaths, type CheckoutPreviewData, type Provider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';
import type { CartLine } from '../hooks/cart-store';
import { cartIds } from '../hooks/cart-store';

/** Products, total and payment routes for the cart (public; the total is before any coupon). */
export function useCheckoutForm(lines: readonly CartLine[]) {
  const till = useTill();
  const ids = cartIds(lines);
  return useQuery({
    queryKey: ['store', 'checkout-form', ids.join(',')],
    queryFn: async () => unwrap(await till.store.getCheckoutForm(ids)).data,
    placeholderData: (previous) => previous,
  });
}

/** Checks a coupon as it is typed. Anonymous visitors are told it will be checked after sign-in. */
export function useCouponCheck(code: string, signedIn: boolean) {
  const till = useTill();
  return useQuery({
    queryKey: ['store', 'coupon', code],
    queryFn: async () => unwrap(await till.store.getCoupon(code)).data.coupon,
    enabled: signedIn && code.length > 0,
    retry: false,
    staleTime: 60_000,
  });
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
  const till = useTill();
  const ids = cartIds(lines);
  return useQuery({
    queryKey: ['store', 'checkout-preview', ids.join(';'), couponCode],
    queryFn: async () =>
      serviceData<CheckoutPreviewData>(till, StorePaths.checkoutPreview, {
        products: ids.join(';'),
        ...(couponCode ? { couponCode } : {}),
      }),
    enabled: signedIn && ids.length > 0,
    placeholderData: (previous) => previous,
    retry: false,
  });
}
