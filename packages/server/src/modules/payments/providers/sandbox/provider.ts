import type { PaymentInstruction } from '@till/protocol';
import type { Config } from '../../../../config.js';
import { fail, type Outcome } from '../../../../errors.js';
import { sign, verifySignature } from '../../../../security/tokens.js';
import type { ModuleHost } from '../../../../http/module.js';
import {
  checkoutOffer,
  type PayableOrder,
  type PaymentPorts,
  type PaymentProvider,
  type ProviderEvent,
} from '../../provider.js';
import { eventOf, type SandboxEvent } from './events.js';
import { registerCheckoutPage } from './page.js';

// Distinct prefixes keep a page link's signature from ever passing as a notification's, and back.
const PAGE = 'default-page:';
const NOTIFY = 'default-notify:';

/**
 * The built-in sandbox provider: a checkout page served by this server, where the buyer pays or
 * declines. Its confirmation is a notification signed with the server's secret and applied through
 * the same path as a real provider's, so the whole purchase path runs on a fresh machine with no keys.
 */
export class DefaultProvider implements PaymentProvider {
  readonly name = 'default' as const;
  readonly checkout = true;

  constructor(private readonly config: Config) {}

  /** The signed link to the checkout page of an order: only who was given it can open the page. */
  pageUrl(iden: string, lang?: string): string {
    const url = `${this.config.publicUrl}/api/pay/default/${encodeURIComponent(iden)}?sig=${this.pageSignature(iden)}`;
    // The language only picks the page's texts: it is not signed, and a changed one changes nothing else.
    return lang ? `${url}&lang=${encodeURIComponent(lang)}` : url;
  }

  pageSignature(iden: string): string {
    return sign(this.config.signingSecret, PAGE + iden);
  }

  checkPageSignature(iden: string, signature: string): boolean {
    return verifySignature(this.config.signingSecret, PAGE + iden, signature);
  }

  start(order: PayableOrder): Promise<PaymentInstruction> {
    return Promise.resolve({ provider: this.name, url: this.pageUrl(order.iden, order.lang) });
  }

  offer(products: string[]): PaymentInstruction {
    return checkoutOffer(this.name, this.config.publicUrl, products);
  }

  /** The notification the checkout page sends when the buyer pays or declines. */
  signNotification(event: SandboxEvent): { payload: string; signature: string } {
    const payload = JSON.stringify(event);
    return { payload, signature: sign(this.config.signingSecret, NOTIFY + payload) };
  }

  readNotification(payload: string, signature: string): Outcome<ProviderEvent> {
    if (!verifySignature(this.config.signingSecret, NOTIFY + payload, signature))
      return fail.paymentRejected('signature');
    return eventOf(payload);
  }

  /** The checkout page itself, served by this server. */
  register({ app }: ModuleHost, ports: PaymentPorts): Promise<void> {
    return registerCheckoutPage(app, this.config, this, ports);
  }
}
