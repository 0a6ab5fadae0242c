import type { Order, PaymentInstruction } from '@till/protocol';
import type { Config } from '../../../../config.js';
import { fail, type Outcome } from '../../../../errors.js';
import type { ModuleHost } from '../../../../http/module.js';
import type { PaymentsDeps } from '../../deps.js';
import { checkoutOffer, type PayableOrder, type PaymentPorts, type PaymentProvider } from '../../provider.js';
import type { PaywallConfig } from './config.js';
import { ipAllowList, parseIpList, type IpAllowList } from './pingback.js';
import { registerPingbackRoute } from './route.js';
import { PAYMENTWALL_WIDGET_URL, widgetUrl, type WidgetSubscription } from './widget.js';

/**
 * Paymentwall's Digital Goods API: the buyer pays on Paymentwall's widget, opened by a URL this
 * server signs, and Paymentwall tells the server with a signed pingback
 * (`GET /api/payments/pingback/paymentwall`). Refunds are made in Paymentwall's merchant area and
 * come back as pingbacks of type 2, so there is no `refund` here.
 */
export class PaywallProvider implements PaymentProvider {
  readonly name = 'paywall' as const;
  readonly checkout = true;
  /** The web app shows the widget in a frame on wide screens. */
  readonly frameOrigins: readonly string[];
  /** Built once: a mistyped `PAYMENTWALL_PINGBACK_IPS` entry stops the start. */
  readonly allow: IpAllowList;

  constructor(
    private readonly paywall: PaywallConfig,
    private readonly deps: PaymentsDeps,
  ) {
    this.allow = ipAllowList(parseIpList(paywall.pingbackIps.join(',')));
    this.frameOrigins = [new URL(paywall.apiUrl ?? PAYMENTWALL_WIDGET_URL).origin];
  }

  /** Read at each use: tests learn the public address only once the server listens. */
  private get config(): Config {
    return this.deps.config;
  }

  start(order: PayableOrder): Promise<Outcome<PaymentInstruction>> {
    return Promise.resolve(this.widget(order));
  }

  private widget(order: PayableOrder): Outcome<PaymentInstruction> {
    const buyer = order.userId;
    const subscription = subscriptionOf(order.lines.map((l) => l.period));
    if (subscription === 'mixed') return fail.paymentRejected('subscription_mix');
    try {
      const url = widgetUrl({
        projectKey: this.paywall.projectKey,
        secretKey: this.paywall.secretKey,
        uid: buyer,
        widget: this.paywall.widget,
        orderId: order.iden,
        name: productNames(order),
        price: order.total,
        ...(subscription ? { subscription } : {}),
        successUrl: `${this.config.publicUrl}/orders/${encodeURIComponent(order.iden)}`,
        ...(this.paywall.apiUrl ? { baseUrl: this.paywall.apiUrl } : {}),
      });
      return { provider: this.name, url };
    } catch (error) {
      // A period Paymentwall cannot bill (not one unit) or a currency code it cannot read.
      this.deps.log.warn({ iden: order.iden, error: String(error) }, 'paymentwall widget not possible');
      return fail.paymentRejected('provider_unavailable');
    }
  }

  offer(products: string[]): PaymentInstruction {
    return checkoutOffer(this.name, this.config.publicUrl, products);
  }

  register({ app }: ModuleHost, ports: PaymentPorts): Promise<void> {
    return registerPingbackRoute(
      app,
      { db: this.deps.db, secretKey: this.paywall.secretKey, allow: this.allow },
      ports,
    );
  }
}

/** What the buyer sees being sold on the widget (`ag_name`). */
function productNames(order: Order): string {
  return order.items.map((i) => (i.quantity > 1 ? `${i.title} × ${i.quantity}` : i.title)).join(', ');
}

/**
 * The widget's subscription for an order's lines: none when no line is a subscription; the period
 * when every line is one of the same period. Anything else is `mixed`: Paymentwall would bill the
 * whole total every period while only the subscription lines renew, so it is not offered.
 */
function subscriptionOf(periods: (string | null)[]): WidgetSubscription | undefined | 'mixed' {
  const distinct = [...new Set(periods)];
  if (distinct.every((p) => p === null)) return undefined;
  const [only] = distinct;
  return distinct.length === 1 && only ? { period: only } : 'mixed';
}
