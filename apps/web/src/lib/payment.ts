import type { AppPayments, PaymentInstruction, Provider } from '@till/protocol';
import { isNativeShell } from '@/platform/platform';
import type { Platform } from '@/platform/types';

/** A payment page to open at an address (as opposed to a form to post). */
export type PaymentPage = Extract<PaymentInstruction, { url: string }>;

/**
 * Sends the browser to pay: opens the provider's page, or posts its form. A full navigation on
 * purpose: the provider's page is not part of the app and brings the buyer back to the order page.
 */
export function goToPayment(payment: PaymentInstruction, win: Window = window): void {
  if ('url' in payment) {
    win.location.assign(payment.url);
    return;
  }
  const doc = win.document;
  const form = doc.createElement('form');
  form.method = payment.form.method;
  form.action = payment.form.action;
  for (const [name, value] of Object.entries(payment.form.fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
}

/**
 * In the phone apps a payment page opens in the system browser and the app shows the order,
 * following it (the order page's poller) until the page's return link brings the buyer back. Answers
 * false outside the shell, and for a form to post (which only a page can send): the caller then
 * leaves with {@link goToPayment}.
 */
export function payOutsideApp(
  payment: PaymentInstruction,
  platform: Pick<Platform, 'openPaymentPage'> | null,
  showOrder: () => void,
): boolean {
  if (!isNativeShell() || !platform || !('url' in payment)) return false;
  void platform.openPaymentPage(payment.url);
  showOrder();
  return true;
}

/** Routes whose page is made to be shown inside another site's page (Paymentwall's widget is). */
const FRAMEABLE: readonly Provider[] = ['paywall'];

/**
 * Wide enough for the widget beside the app's own frame. Below it (phones, a phone turned
 * sideways) the widget gets the whole screen as a page of its own.
 */
export const FRAME_MEDIA_QUERY = '(min-width: 900px) and (min-height: 600px)';

/**
 * Whether this payment opens in a frame over the app instead of replacing it: only a frameable
 * route's page, at an http(s) address, on a wide screen, and never in the native shell: the app
 * there runs on phones and tablets, where the widget has the whole screen as a page of its own.
 */
export function opensInFrame(payment: PaymentInstruction, win: Window = window): payment is PaymentPage {
  if (!('url' in payment) || !FRAMEABLE.includes(payment.provider)) return false;
  if (isNativeShell()) return false;
  let protocol: string;
  try {
    protocol = new URL(payment.url, win.location.href).protocol;
  } catch {
    return false;
  }
  if (protocol !== 'https:' && protocol !== 'http:') return false;
  return Boolean(win.matchMedia?.(FRAME_MEDIA_QUERY).matches);
}

/**
 * A payment page handed from one screen to the next in the router's history state (checkout hands
 * the order page the frame to open); anything else found there is ignored.
 */
export function framedPaymentFrom(state: unknown): PaymentPage | null {
  const payment = (state as { payment?: unknown } | null)?.payment as Partial<PaymentPage> | undefined;
  if (!payment || typeof payment.url !== 'string' || typeof payment.provider !== 'string') return null;
  if (!FRAMEABLE.includes(payment.provider)) return null;
  return { provider: payment.provider, url: payment.url };
}

/** The routes the platform's own in-app store pays through. */
const IN_APP: readonly Provider[] = ['appstore', 'googleplay'];

/**
 * The payment routes checkout offers on this platform, from the server's routes (`providers`) and
 * what it says of the phone apps (`app`, getCheckoutForm): the in-app store's route only where that
 * store is available now (the shell with the purchase plugin) and the server verifies its
 * purchases, never another platform's; inside the apps the web routes only when the server shows
 * them there (`APP_WEB_PAYMENTS`: Apple's and Google's rules for digital goods hide them by
 * default); credits wherever they are offered (bought on the web, spent in the app). The browser
 * keeps every web route.
 */
export function routesForPlatform(
  providers: readonly Provider[],
  app: AppPayments,
  platform: { kind: 'web' | 'android' | 'ios'; inAppStore: Provider | null },
): Provider[] {
  const store = platform.inAppStore;
  const verified = (p: Provider) => (app.stores as readonly Provider[]).includes(p);
  // The app's own store comes first: the route the app offers by default.
  const own = store && platform.kind !== 'web' && verified(store) ? [store] : [];
  const others = providers.filter((p) => {
    if (IN_APP.includes(p)) return false;
    if (p === 'credits' || platform.kind === 'web') return true;
    return app.webPayments === 'shown';
  });
  return [...own, ...others];
}

/**
 * Whether a phone app can sell a product its store does not: with credits (a credit price), or on
 * a web route when the server shows them in the apps (`app`; unknown counts as hidden).
 */
export function payableWithoutStore(product: { creditPrice: number | null }, app: AppPayments | undefined): boolean {
  return product.creditPrice !== null || app?.webPayments === 'shown';
}

/** Whether the route pays through the platform's in-app store (and not through the server's checkout). */
export const isInAppRoute = (provider: Provider): provider is 'appstore' | 'googleplay' => IN_APP.includes(provider);
