import { queryOptions, useQuery } from '@tanstack/react-query';
import { StorePaths, type Entitlement } from '@till/protocol';
import { serviceData } from './calls';
import { storeKeys } from './store-queries';
import { useSession, useTill, type Till } from './till';

const EMPTY: ReadonlySet<string> = new Set();
const NONE: ReadonlyMap<string, ActiveSubscription> = new Map();

/** What the buyer holds (under `store` so that a paid order refreshes it). */
const entitlementsQuery = (till: Till) =>
  queryOptions({
    queryKey: storeKeys.entitlements,
    queryFn: async () =>
      (await serviceData<{ entitlements: Entitlement[] }>(till, StorePaths.entitlements)).entitlements,
  });

/**
 * The products the signed-in buyer owns for good (active non-consumables): these are marked and
 * not offered for sale again. Empty for a visitor.
 */
export function useOwnedProducts(): ReadonlySet<string> {
  const till = useTill();
  const { loggedIn } = useSession();
  const query = useQuery({
    ...entitlementsQuery(till),
    enabled: loggedIn,
    select: (list) => new Set(list.filter((e) => e.kind === 'ownership' && e.active).map((e) => e.productId)),
  });
  return (loggedIn && query.data) || EMPTY;
}

/** A subscription the buyer has now: until when, and whether it renews then. */
export interface ActiveSubscription {
  until: string;
  renews: boolean;
}

/**
 * The signed-in buyer's running subscriptions by product: these are not offered for sale as if new.
 * Empty for a visitor.
 */
export function useActiveSubscriptions(): ReadonlyMap<string, ActiveSubscription> {
  const till = useTill();
  const { loggedIn } = useSession();
  const query = useQuery({
    ...entitlementsQuery(till),
    enabled: loggedIn,
    select: (list) =>
      new Map(
        list
          .filter((e) => e.kind === 'subscription' && e.active && e.expiresAt)
          .map((e) => [e.productId, { until: e.expiresAt ?? '', renews: e.renews ?? false }] as const),
      ),
  });
  return (loggedIn && query.data) || NONE;
}
