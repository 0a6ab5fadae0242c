import { useQuery } from '@tanstack/react-query';
import { StorePaths, type Entitlement } from '@till/protocol';
import { serviceData } from './calls';
import { storeKeys } from './store-queries';
import { useSession, useTill } from './till';

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The products the signed-in buyer owns for good (active non-consumables): these are marked and
 * not offered for sale again. Empty for a visitor. Under `store` so that a paid order refreshes it.
 */
export function useOwnedProducts(): ReadonlySet<string> {
  const till = useTill();
  const { loggedIn } = useSession();
  const query = useQuery({
    queryKey: storeKeys.entitlements,
    queryFn: async () =>
      (await serviceData<{ entitlements: Entitlement[] }>(till, StorePaths.entitlements)).entitlements,
    enabled: loggedIn,
    select: (list) => new Set(list.filter((e) => e.kind === 'ownership' && e.active).map((e) => e.productId)),
  });
  return (loggedIn && query.data) || EMPTY;
}
