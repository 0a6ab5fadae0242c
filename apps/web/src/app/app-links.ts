import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { matchPath, useNavigate } from 'react-router-dom';
import { productsQuery } from '@/features/store/api/store-api';
import { useTill } from '@/lib/till';
import { getPlatform, isNativeShell } from '@/platform/platform';
import { paths } from './paths';

/** The pages a link from outside the app (a mail, the system browser) opens in the phone app. */
const LINKED = [paths.confirm.path, paths.reset.path, paths.order.path];

/**
 * The app route of a link the system handed to the phone app, or null when it is not one of the
 * server's (`hosts`: its public addresses) or not a page the app opens from outside.
 *
 * @example
 * linkedRoute('https://till.example/orders/A-1?x=1', ['https://till.example']) // '/orders/A-1?x=1'
 */
export function linkedRoute(url: string, hosts: readonly string[]): string | null {
  let link: URL;
  try {
    link = new URL(url);
  } catch {
    return null;
  }
  const ours = hosts.some((h) => {
    try {
      return new URL(h).origin === link.origin;
    } catch {
      return false;
    }
  });
  if (!ours || !LINKED.some((p) => matchPath(p, link.pathname))) return null;
  return link.pathname + link.search;
}

/** Where a provider's flow in the system browser comes back to: the finish page, or the profile (connect). */
const RETURNS = [paths.socialFinish.path, paths.profile.path];

/** The phone apps' URL scheme (the app id unless the build says otherwise; the server's SOCIAL_APP_SCHEME). */
export const APP_SCHEME = import.meta.env.VITE_APP_SCHEME || 'app.till.mobile';

/**
 * The app route of a provider's return through the app's URL scheme, its fragment (the ticket)
 * kept; null for anything else.
 *
 * @example
 * schemeRoute('app.till.mobile:/social/finish#ticket=abc', 'app.till.mobile') // '/social/finish#ticket=abc'
 */
export function schemeRoute(url: string, scheme: string): string | null {
  let link: URL;
  try {
    link = new URL(url);
  } catch {
    return null;
  }
  if (link.protocol !== `${scheme}:` || !RETURNS.some((p) => matchPath(p, link.pathname))) return null;
  return link.pathname + link.search + link.hash;
}

/** The server's public addresses the phone build knows. */
const serverHosts = [import.meta.env.VITE_API_HOST, import.meta.env.VITE_STORE_HOST].filter((h): h is string => !!h);

/**
 * In the phone app, opens the page a link points to when the system hands the app one of the
 * server's links (a mail's confirmation or reset link, the return from a payment in the system
 * browser), or a provider's return through the app's URL scheme.
 */
export function useAppLinks(): void {
  const navigate = useNavigate();
  // The router hands out a new navigate with every page: the listener reads the latest one, so
  // that it stays subscribed once instead of leaving a gap where a link would be missed.
  const go = useRef(navigate);
  useEffect(() => {
    go.current = navigate;
  }, [navigate]);
  useEffect(() => {
    if (!isNativeShell()) return;
    let off: (() => void) | undefined;
    let live = true;
    void getPlatform().then((p) => {
      if (!live) return;
      off = p.onLinkOpened((url) => {
        const back = schemeRoute(url, APP_SCHEME);
        if (back) {
          // A provider's return: the system browser the sign-in ran in has done its part.
          void p.closeSignInPage().catch(() => undefined);
          void go.current(back);
          return;
        }
        const route = linkedRoute(url, serverHosts);
        if (!route) return;
        // A payment page's return: the system browser it was paid in has done its part.
        if (matchPath(paths.order.path, route.split('?')[0] ?? '')) void p.closePaymentPage().catch(() => undefined);
        void go.current(route);
      });
    });
    return () => {
      live = false;
      off?.();
    };
  }, []);
}

/**
 * In the phone app with an in-app store: starts the store with the catalog as soon as it is known,
 * so that returning to the app refreshes it from the start (not only once something was bought).
 */
export function useInAppStoreAtStart(): void {
  const till = useTill();
  const { i18n } = useTranslation();
  const native = isNativeShell();
  const products = useQuery({ ...productsQuery(till, i18n.language), enabled: native });
  useEffect(() => {
    if (!native || !products.data) return;
    const catalog = products.data;
    void getPlatform().then((p) => p.startInAppStore(catalog, till.store).catch(() => undefined));
  }, [native, products.data, till]);
}
