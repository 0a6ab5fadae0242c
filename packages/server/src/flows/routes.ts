import {
  checkoutPreviewData,
  checkoutPreviewRequest,
  adminOrderRefundData,
  adminOrderRefundRequest,
  dataResponse,
  doCheckoutData,
  doCheckoutRequest,
  endSubscriptionData,
  endSubscriptionRequest,
  getCheckoutFormData,
  getCheckoutFormRequest,
  Level,
  payWithCreditsData,
  payWithCreditsRequest,
  paymentNotificationData,
  paymentNotificationRequest,
  pickLanguage,
  providerSchema,
  validatePurchaseData,
  validatePurchaseRequest,
  type AdminOrder,
  type Order,
  type PayWithCreditsRequest,
  type ShopLanguage,
} from '@till/protocol';
import type { Outcome } from '../errors.js';
import { asData, type CallContext, type CallRegistry } from '../http/calls.js';
import type { PaymentEvents } from './apply-payment-event.js';
import type { RefundAsk } from './refund.js';
import { appShellOf, type Checkout } from './checkout.js';
import type { PurchaseValidation } from './validate-purchase.js';

/** The flows the calls below run (the `Flows` entry provides them). */
export interface FlowCalls {
  checkout: Checkout;
  events: PaymentEvents;
  purchases: PurchaseValidation;
  payWithCredits(
    userId: string,
    input: PayWithCreditsRequest,
    lang: ShopLanguage,
  ): Promise<Outcome<{ order: Order; balance: number }>>;
  refund(ask: RefundAsk): Promise<Outcome<{ order: AdminOrder }>>;
  endSubscription(userId: string, iden: string): Promise<Outcome<{ order: Order }>>;
}

/** The buyer's language for product texts: the app sends its own with every call as `Accept-Language`. */
const buyerLanguage = (ctx: CallContext) => pickLanguage(ctx.request.headers['accept-language']);

/** The calls that buy, pay and refund: each runs a flow across the store and payments. */
export function registerFlowRoutes(calls: CallRegistry, flows: FlowCalls): void {
  calls.define({
    path: '/api/auth/payWithCredits',
    summary: 'Buy with credits (`products` and `dataObj` are JSON text); the order comes back paid.',
    tag: 'store',
    auth: Level.Registered,
    request: payWithCreditsRequest,
    response: dataResponse(payWithCreditsData),
    handler: async (input, ctx) => asData(await flows.payWithCredits(ctx.caller.userId, input, buyerLanguage(ctx))),
  });
  calls.define({
    path: '/api/store/doCheckout',
    summary: 'A new order from `products` (ids joined with `;`) and `couponCode`, or how to pay `pastOrder`.',
    tag: 'store',
    auth: Level.Registered,
    request: doCheckoutRequest,
    response: dataResponse(doCheckoutData),
    handler: async (input, ctx) => {
      // The payment page speaks the buyer's language: the app's `Accept-Language`, when it sent one.
      const header = ctx.request.headers['accept-language'];
      const lang = header ? pickLanguage(header) : undefined;
      // A phone app's WebView names the shell's origin; a client that names none is taken for a browser.
      const app = appShellOf(ctx.request.headers.origin);
      return asData(await flows.checkout.doCheckout(ctx.caller.userId, input, lang, app));
    },
  });
  calls.define({
    path: '/api/store/checkoutPreview',
    summary:
      'What doCheckout would charge for `products` (ids joined with `;`) and `couponCode`, priced by its rules, writing nothing; a coupon that cannot be used is named in `couponRefused`.',
    tag: 'store',
    auth: Level.Registered,
    request: checkoutPreviewRequest,
    response: dataResponse(checkoutPreviewData),
    handler: async (input, ctx) =>
      asData(await flows.checkout.previewCheckout(ctx.caller.userId, input, buyerLanguage(ctx))),
  });
  calls.define({
    path: '/api/store/getCheckoutForm',
    summary: 'The cart (ids joined with `,`), its total and the configured ways to pay.',
    tag: 'store',
    request: getCheckoutFormRequest,
    response: dataResponse(getCheckoutFormData),
    handler: async (input, ctx) => asData(await flows.checkout.getCheckoutForm(input.products, buyerLanguage(ctx))),
  });
  calls.define({
    path: '/api/payments/notify/:provider',
    summary: "A provider's signed notification; the same event is applied once (904 for a provider not configured).",
    tag: 'payments',
    params: true,
    request: paymentNotificationRequest.extend({ provider: providerSchema }),
    response: dataResponse(paymentNotificationData),
    handler: async (input) =>
      asData(await flows.events.applyNotification(input.provider, input.payload, input.signature)),
  });
  calls.define({
    path: '/api/store/validatePurchase',
    summary: 'Check an in-app store transaction (`transactionData`, JSON text) and record it as a paid order.',
    tag: 'payments',
    auth: Level.Registered,
    request: validatePurchaseRequest,
    response: dataResponse(validatePurchaseData),
    handler: async (input, ctx) => asData(await flows.purchases.validate(ctx.caller.userId, input.transactionData)),
  });
  calls.define({
    path: '/api/store/endSubscription',
    summary:
      "End the subscription a paid order started at its period's end, not renewed (the card route; 912 `not_renewing` elsewhere).",
    tag: 'store',
    auth: Level.Registered,
    request: endSubscriptionRequest,
    response: dataResponse(endSubscriptionData),
    handler: async (input, ctx) => asData(await flows.endSubscription(ctx.caller.userId, input.iden)),
  });
  calls.define({
    path: '/api/admin/orders/refund',
    summary:
      'Refund a paid order, reversing its grants (912 when not paid or its credits are spent), or give some or all of its money back only (`amount`, `keepGrants`).',
    tag: 'admin',
    auth: Level.Admin,
    stepUp: true,
    request: adminOrderRefundRequest,
    response: dataResponse(adminOrderRefundData),
    handler: async (input, ctx) => asData(await flows.refund({ ...input, adminId: ctx.caller.userId })),
  });
}
