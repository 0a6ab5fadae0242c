import { DefaultProvider } from '@till/server/testing';
import type { TestApp } from './app.js';
import { uploadOne } from './files.js';
import { giveCredits, ok, saveCoupon } from './store.js';
import { registerUser } from './users.js';

type Checkout = { order: { iden: string; total: { amount: number; currency: string } } };

/** Pays an order made by a checkout as the built-in provider's notification does. */
export async function payByNotification(t: TestApp, checkout: Checkout, eventId: string): Promise<void> {
  const note = new DefaultProvider(t.ctx.config).signNotification({
    eventId,
    orderId: checkout.order.iden,
    outcome: 'paid',
    amount: checkout.order.total.amount,
    currency: checkout.order.total.currency,
  });
  await ok(t, '/api/payments/notify/default', note);
}

/** A buyer's purchase of a credit pack, paid by the provider: answers the order. */
export async function buyCreditPack(t: TestApp, token: string, eventId: string): Promise<string> {
  const checkout = await ok<Checkout>(t, '/api/store/doCheckout', { token, products: 'credits-100' });
  await payByNotification(t, checkout, eventId);
  return checkout.order.iden;
}

/**
 * A shop with a bit of everything, made through the API (the app must listen, for the upload): a
 * credit pack paid by the provider, a non-consumable bought with credits, a subscription paid by the provider, a
 * checkout left pending, a coupon redeemed, and an uploaded file.
 */
export async function stockShop(t: TestApp, tag = 'shop') {
  const buyer = await registerUser(t);
  const creditOrder = await buyCreditPack(t, buyer.token, `evt-${tag}-${buyer.userId}`);
  await giveCredits(t, buyer.userId, 500);
  const unlock = await ok<Checkout>(t, '/api/auth/payWithCredits', {
    token: buyer.token,
    products: JSON.stringify(['pro-unlock']),
  });
  const monthly = await ok<Checkout>(t, '/api/store/doCheckout', { token: buyer.token, products: 'monthly' });
  await payByNotification(t, monthly, `evt-${tag}-monthly-${buyer.userId}`);
  const pending = await ok<Checkout>(t, '/api/store/doCheckout', { token: buyer.token, products: 'credits-100' });
  const code = `${tag}-${buyer.userId}`
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 30);
  await saveCoupon(t, { code, kind: 'grant', grantCredits: 5, usageLimit: 10 });
  await ok(t, '/api/store/redeemCoupon', { token: buyer.token, couponCode: code });
  const file = await uploadOne(t, buyer.token, `contents of ${tag}`, 'notes.txt');
  return {
    buyer,
    creditOrder,
    unlockOrder: unlock.order.iden,
    monthlyOrder: monthly.order.iden,
    pendingOrder: pending.order.iden,
    coupon: code,
    file,
  };
}
