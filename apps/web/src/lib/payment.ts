import type { PaymentInstruction, Provider } from '@till/protocol';
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
 * The payment routes checkout offers on this platform: the in-app store's route only where that
 * store is available now (the shell with the purchase plugin), never another platform's; inside
 * the iOS app nothing but the App Store and credits, since Apple does not let an app send buyers
 * of digital goods to pay elsewhere; the browser and Android keep the web routes.
 */
export function routesForPlatform(
  providers: readonly Provider[],
  platform: { kind: 'web' | 'android' | 'ios'; inAppStore: Provider | null },
): Provider[] {
  return providers.filter((p) => {
    if (IN_APP.includes(p)) return p === platform.inAppStore;
    if (platform.kind === 'ios') return p === 'credits';
    return true;
  });
}

/** Whether the route pays through the platform's in-app store (and not through the server's checkout). */
export const isInAppRoute = (provider: Provider): provider is 'appstore' | 'googleplay' => IN_APP.includes(provider);
