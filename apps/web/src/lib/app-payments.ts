import { useQuery } from '@tanstack/react-query';
import type { AppPayments } from '@till/protocol';
import { isNativeShell } from '@/platform/platform';
import { unwrap } from './api-error';
import { useTill } from './till';

/**
 * What the server lets the phone apps offer (`APP_WEB_PAYMENTS`, the stores it verifies), from the
 * empty cart's checkout form (the cache entry an empty cart's checkout shares); undefined in the
 * browser, while loading, and when the server cannot be asked, which the app takes as the stores'
 * default: web routes hidden.
 */
export function useAppPayments(): AppPayments | undefined {
  const till = useTill();
  const native = isNativeShell();
  const form = useQuery({
    queryKey: ['store', 'checkout-form', ''],
    queryFn: async () => unwrap(await till.store.getCheckoutForm([])).data,
    enabled: native,
    staleTime: 5 * 60_000,
  });
  return native ? form.data?.app : undefined;
}
