import { useQuery } from '@tanstack/react-query';
import { StorePaths, type StoreCreditsData } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';

export const creditsKey = ['store', 'credits'] as const;

/** Balance and ledger of the signed-in buyer. */
export function useCredits() {
  const till = useTill();
  return useQuery({
    queryKey: creditsKey,
    queryFn: () => serviceData<StoreCreditsData>(till, StorePaths.credits, { page: 1, pageSize: 100 }),
  });
}

export async function redeemCoupon(till: Till, code: string) {
  return unwrap(await till.store.redeemCoupon(code)).data;
}
