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

/** The server's public addresses the phone build knows. */
const serverHosts = [import.meta.env.VITE_API_HOST, import.meta.env.VITE_STORE_HOST].filter((h): h is string => !!h);

/**
 * In the phone app, opens the page a link points to when the system hands the app one of the
 * server's links (a mail's confirmation or reset link, the return from a payment in the system
 * browser).
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
