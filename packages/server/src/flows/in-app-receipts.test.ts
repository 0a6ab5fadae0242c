import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../mail/mailer.js';
import {
  appleTransaction,
  monthlyTransaction,
  pluginTransaction,
  signJws,
  startAppleTestStore,
  type AppleTestStore,
  type Tx,
} from '@till/test-support/apple-signing';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakeGoogle, googlePlayTestConfig, playTransaction } from '@till/test-support/fake-google-play';
import { startSmtp, type ReceivedMail, type TestSmtp } from '@till/test-support/smtp';
import { ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

const RECEIPT = /^Till: (Your receipt for order|Deine Quittung für Bestellung) #/;

/**
 * The receipt of a purchase made in the phone app's store (App Store, Google Play), read from a real
 * SMTP server: the store named as the route, each line at the catalog's price times its quantity,
 * and the total the order recorded.
 */
describe.each(dialects)('in-app purchase receipts on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let apple: AppleTestStore;
  let google: FakeGoogle;
  let seq = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    apple = await startAppleTestStore();
    google = new FakeGoogle();
    await google.start();
    t = await startTestApp({
      dialect,
      listen: true,
      mailer: createMailer(smtp.url, 'shop@till.test'),
      config: {
        payments: {
          card: undefined,
          paywall: undefined,
          appstore: apple.config,
          googleplay: googlePlayTestConfig(google),
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([apple.close(), google.close(), smtp.close()]);
  });

  const next = async (to: string): Promise<ReceivedMail> => {
    const mail = await smtp.next(to, RECEIPT);
    return { ...mail, text: mail.text.replace(/[\u00a0\u202f]/g, ' ') };
  };
  const validate = async (token: string, transactionData: string) =>
    expect((await t.call('/api/store/validatePurchase', { token, transactionData })).data).toMatchObject({ result: 1 });
  const applePurchase = (tx: Tx) =>
    pluginTransaction({ transactionId: tx.transactionId, jwsRepresentation: signJws(apple.apple, tx) });
  const orderOf = async (token: string) => {
    const { orders } = await ok<{ orders: { iden: string; provider: string; total: { amount: number } }[] }>(
      t,
      '/api/store/orders',
      { token },
    );
    expect(orders).toHaveLength(1);
    return orders[0]!;
  };
  const ref = (iden: string) => `#${iden.slice(-6).toUpperCase()}`;

  it('names the App Store and prices the lines it sold, two at once', async () => {
    const b = await registerUser(t, { name: 'Ada' });
    await validate(b.token, applePurchase(appleTransaction('till.credits100', { quantity: 2 })));
    const order = await orderOf(b.token);
    expect(order).toMatchObject({ provider: 'appstore', total: { amount: 398 } });
    const mail = await next(b.email);
    expect(mail.subject).toBe(`Till: Your receipt for order ${ref(order.iden)}`);
    expect(mail.text).toContain(`Hello Ada, thank you for your order ${ref(order.iden)}.`);
    expect(mail.text).toContain('100 credits\n  Quantity: 2, Unit price: $1.99, Total: $3.98');
    expect(mail.text).toContain('Subtotal: $3.98\nTotal: $3.98\n');
    expect(mail.text).toContain('Paid with: the App Store');
    expect(mail.text).toContain(`Your order: ${t.url}/orders/${order.iden}`);
    expect(smtp.mails.filter((m) => m.to.includes(b.email) && RECEIPT.test(m.subject))).toHaveLength(1);
  });

  it('names the App Store for a subscription, in German for a German account', async () => {
    const b = await registerUser(t, { name: 'Bea', lang: 'de' });
    await validate(b.token, applePurchase(monthlyTransaction()));
    const order = await orderOf(b.token);
    const mail = await next(b.email);
    expect(mail.subject).toBe(`Till: Deine Quittung für Bestellung ${ref(order.iden)}`);
    expect(mail.text).toContain('Monatsabo\n  Menge: 1, Stückpreis: 2,99 $, Betrag: 2,99 $');
    expect(mail.text).toContain('Summe: 2,99 $');
    expect(mail.text).toContain('Bezahlt mit: den App Store');
  });

  it('names Google Play and prices what it sold', async () => {
    seq += 1;
    const b = await registerUser(t, { name: 'Cy' });
    const token = `tok-receipt-${seq}`;
    const orderId = `GPA.3300-0000-0000-${String(seq).padStart(5, '0')}`;
    google.products.set(token, {
      productId: 'till.pro_unlock',
      purchaseTimeMillis: String(Date.now()),
      purchaseState: 0,
      consumptionState: 0,
      orderId,
      purchaseType: 0,
      acknowledgementState: 0,
      quantity: 1,
      regionCode: 'US',
    });
    await validate(b.token, playTransaction(token, 'till.pro_unlock', { orderId }));
    const order = await orderOf(b.token);
    expect(order).toMatchObject({ provider: 'googleplay', total: { amount: 499 } });
    const mail = await next(b.email);
    expect(mail.subject).toBe(`Till: Your receipt for order ${ref(order.iden)}`);
    expect(mail.text).toContain('Pro unlock\n  Quantity: 1, Unit price: $4.99, Total: $4.99');
    expect(mail.text).toContain('Total: $4.99');
    expect(mail.text).toContain('Paid with: Google Play');
  });
});
