import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakeStripe, newWebhookSecret } from '@till/test-support/fake-stripe';
import { startSmtp, type ReceivedMail, type TestSmtp } from '@till/test-support/smtp';
import { anAdmin, giveCredits, ok, saveCoupon } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface Placed {
  order: {
    iden: string;
    status: string;
    total: { amount: number; currency: string };
    discount: { amount: number };
  };
  payment: { url: string };
}

const RECEIPT = /^Till: Your receipt for order #/;
const REFUND = /^Till: Refund of your order #/;
const RENEWAL = /^Till: Your subscription was renewed/;
const ENDED = /^Till: Your subscription has ended/;
const LATE = /^Till: Deine Zahlung für Bestellung #.* wurde zurückgegeben$/;
const DAY_MS = 86_400_000;
const ref = (iden: string) => `#${iden.slice(-6).toUpperCase()}`;
const usd = (minor: number) => `$${(minor / 100).toFixed(2)}`;
const sessionIdOf = (url: string) => /cs_test_[A-Za-z0-9]+/.exec(url)?.[0] ?? '';

/**
 * The mails a shop sends, read from a real SMTP server: receipts for orders paid by each route,
 * refund notices, a subscription's renewal and end, in the buyer's language; each once, whatever a
 * provider sends again, and sent later by the job when sending after the commit failed.
 */
describe.each(dialects)('shop mails on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let stripe: FakeStripe;
  let secret: string;
  let hook: string;
  let admin: { token: string };
  /** While set, mails fail before reaching the SMTP server, as when it is down. */
  let smtpDown = false;

  beforeAll(async () => {
    smtp = await startSmtp();
    stripe = new FakeStripe();
    await stripe.start();
    secret = newWebhookSecret();
    const real = createMailer(smtp.url, 'shop@till.test');
    const mailer: Mailer = {
      send: (message) => (smtpDown ? Promise.reject(new Error('connect ECONNREFUSED')) : real.send(message)),
      close: () => real.close(),
    };
    t = await startTestApp({
      dialect,
      listen: true,
      mailer,
      config: {
        // Longer than a month, so that the job run when a month's subscription runs out keeps its receipt.
        mailOutboxRetentionDays: 60,
        payments: {
          card: { secretKey: stripe.secretKey, webhookSecret: secret, apiUrl: stripe.url },
          paywall: undefined,
        },
      },
    });
    hook = `${t.url}/api/payments/webhook/stripe`;
    stripe.webhook = { url: hook, secret };
    admin = await anAdmin(t);
  });
  afterAll(async () => {
    await stripe.close();
    await t.close();
    await smtp.close();
  });

  /** The next mail to `to` matching `subject`, its text with the no-break spaces of formatted money as plain ones. */
  const next = async (to: string, subject: RegExp): Promise<ReceivedMail> => {
    const mail = await smtp.next(to, subject);
    return { ...mail, text: mail.text.replace(/[\u00a0\u202f]/g, ' ') };
  };
  const checkout = (token: string, fields: Record<string, unknown>) =>
    ok<Placed>(t, '/api/store/doCheckout', { token, provider: 'default', ...fields });
  const notifyPaid = (order: Placed['order'], eventId = `evt-${order.iden}`) =>
    ok<{ applied: boolean }>(
      t,
      '/api/payments/notify/default',
      new DefaultProvider(t.ctx.config).signNotification({
        eventId,
        orderId: order.iden,
        outcome: 'paid',
        amount: order.total.amount,
        currency: order.total.currency,
      }),
    );
  /** An order paid through the sandbox, as its checkout page pays it. */
  const sandboxOrder = async (token: string, fields: Record<string, unknown>) => {
    const placed = await checkout(token, fields);
    await notifyPaid(placed.order);
    return placed.order;
  };
  const refund = (iden: string, extra: Record<string, unknown> = {}) =>
    ok(t, '/api/admin/orders/refund', { token: admin.token, iden, ...extra });
  /** The queued mails of one order, or of every order. */
  const queued = (orderId?: string) =>
    t.ctx.db.kysely
      .selectFrom('mail_outbox')
      .selectAll()
      .$if(orderId !== undefined, (q) => q.where('order_id', '=', orderId!))
      .orderBy('created_at')
      .execute();
  const mailsTo = (email: string, subject: RegExp) =>
    smtp.mails.filter((m) => m.to.includes(email) && subject.test(m.subject));
  /**
   * Waits until every mail queued for the order (or for any order) and due now has been tried, then
   * answers the queued rows.
   */
  const allSent = async (orderId?: string) => {
    for (;;) {
      const rows = await queued(orderId);
      const now = Date.now();
      if (rows.every((r) => r.sent_at != null || r.last_error != null || r.due_at > now)) return rows;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const shopJob = () => {
    const job = t.jobs.list.find((j) => j.name === 'flows.shop-mails');
    if (!job) throw new Error('no flows.shop-mails job');
    return job;
  };
  /**
   * One run of the job at `now`, once every mail due now has been tried. A mail reaches the SMTP server
   * before its sender marks it sent: a run an hour or a month ahead at that moment would find it unsent,
   * its claim long over at that time, and send it again (seen on a busy machine). The job's clock is
   * the test's; the deliveries after their commits run on the real one.
   */
  const runJob = async (now: number) => {
    await allSent();
    return shopJob().run(now);
  };
  const expectReceiptBasics = (mail: ReceivedMail, iden: string) => {
    expect(mail.subject).toBe(`Till: Your receipt for order ${ref(iden)}`);
    expect(mail.text).toContain(`Your order: ${t.url}/orders/${iden}`);
    expect(mail.html).toContain(`href="${t.url}/orders/${iden}"`);
  };

  it('sends a receipt for an order paid through the sandbox: lines, total, route and link; a redelivered event sends nothing more', async () => {
    const b = await registerUser(t, { name: 'Ada' });
    const placed = await checkout(b.token, { products: 'credits-100;credits-100;pro-unlock' });
    // Nothing is owed before the payment.
    expect(await queued(placed.order.iden)).toEqual([]);
    expect(await notifyPaid(placed.order)).toMatchObject({ applied: true });
    const mail = await next(b.email, RECEIPT);
    expectReceiptBasics(mail, placed.order.iden);
    expect(mail.text).toContain(`Hello Ada, thank you for your order ${ref(placed.order.iden)}.`);
    expect(mail.text).toContain(`100 credits\n  Quantity: 2, Unit price: ${usd(199)}, Total: ${usd(398)}`);
    expect(mail.text).toContain(`Pro unlock\n  Quantity: 1, Unit price: ${usd(499)}, Total: ${usd(499)}`);
    expect(mail.text).toContain(`Total: ${usd(placed.order.total.amount)}`);
    expect(placed.order.total.amount).toBe(398 + 499);
    expect(mail.text).toContain('Paid with: the sandbox checkout (a test payment: no real money moved)');
    expect(mail.text).not.toContain('Coupon');
    expect(mail.html).toContain(
      '<th style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left">Unit price</th>',
    );
    expect(mail.html).toContain(
      `<td style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left">${usd(398)}</td>`,
    );

    // The provider sends the same event again, and once more under another id: nothing new is queued or sent.
    expect(await notifyPaid(placed.order)).toMatchObject({ applied: false });
    expect(await notifyPaid(placed.order, `evt-again-${placed.order.iden}`)).toMatchObject({ applied: false });
    const rows = await allSent(placed.order.iden);
    expect(rows.map((r) => r.kind)).toEqual(['receipt']);
    expect(await runJob(Date.now() + 3_600_000)).toBe(0);
    expect(mailsTo(b.email, RECEIPT)).toHaveLength(1);
  });

  it('sends a receipt for a purchase with credits, priced in credits', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 1_000);
    const { order } = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify([{ id: 'pro-unlock', quantity: 1 }]),
    });
    const mail = await next(b.email, RECEIPT);
    expectReceiptBasics(mail, order.iden);
    expect(mail.text).toContain('Pro unlock\n  Quantity: 1, Unit price: 500 credits, Total: 500 credits');
    expect(mail.text).toContain('Total: 500 credits');
    expect(mail.text).toContain('Paid with: your Till credits');
  });

  it('shows the coupon and its discount; an order a coupon pays whole is paid at once, with nothing to pay', async () => {
    await saveCoupon(t, { code: 'MAIL10', kind: 'discount', percentOff: 10, active: true });
    await saveCoupon(t, { code: 'MAILFREE', kind: 'discount', percentOff: 100, active: true });
    const b = await registerUser(t);
    const placed = await checkout(b.token, { products: 'pro-unlock', couponCode: 'MAIL10' });
    const discount = placed.order.discount.amount;
    expect(discount).toBeGreaterThan(0);
    await notifyPaid(placed.order);
    const mail = await next(b.email, RECEIPT);
    expectReceiptBasics(mail, placed.order.iden);
    expect(mail.text).toContain(
      `Subtotal: ${usd(499)}\nCoupon MAIL10: −${usd(discount)}\nTotal: ${usd(499 - discount)}`,
    );

    const free = await checkout(b.token, { products: 'credits-100', couponCode: 'MAILFREE' });
    expect(free.order.status).toBe('paid');
    const freeMail = await next(b.email, RECEIPT);
    expectReceiptBasics(freeMail, free.order.iden);
    expect(freeMail.text).toContain(`Coupon MAILFREE: −${usd(199)}\nTotal: ${usd(0)}`);
    expect(freeMail.text).toContain('Paid with: nothing to pay');
  });

  it('tells of a whole refund what went back, of a partial one that it was money only, and of a credits refund in credits', async () => {
    const b = await registerUser(t);
    const whole = await sandboxOrder(b.token, { products: 'credits-100;pro-unlock' });
    await next(b.email, RECEIPT);
    await refund(whole.iden, { reason: 'asked by the buyer' });
    const notice = await next(b.email, REFUND);
    expect(notice.subject).toBe(`Till: Refund of your order ${ref(whole.iden)}`);
    expect(notice.text).toContain(`we have refunded your order ${ref(whole.iden)}.`);
    expect(notice.text).toContain(`Given back: ${usd(199 + 499)}`);
    expect(notice.text).toContain('Taken back: 100 credits; Pro unlock (no longer yours)');
    expect(notice.text).toMatch(/\nOn: \w+ \d{1,2}, \d{4}, \d{2}:\d{2} UTC\n/);
    expect(notice.text).toContain(`Your order: ${t.url}/orders/${whole.iden}`);
    // Refunded is final: a second ask is refused, and no second notice is queued.
    expect((await t.call('/api/admin/orders/refund', { token: admin.token, iden: whole.iden })).code).toBe(912);
    expect((await allSent(whole.iden)).map((r) => r.kind)).toEqual(['receipt', 'refund']);

    const part = await sandboxOrder(b.token, { products: 'credits-100' });
    await next(b.email, RECEIPT);
    await refund(part.iden, { amount: 50, keepGrants: true });
    const partial = await next(b.email, REFUND);
    expect(partial.text).toContain(`Given back: ${usd(50)}`);
    expect(partial.text).toContain('Taken back: nothing: this refund is of money only, and you keep everything');
    // Money only of the rest is its own refund, with its own notice.
    await refund(part.iden, { keepGrants: true });
    expect((await next(b.email, REFUND)).text).toContain(`Given back: ${usd(149)}`);

    await giveCredits(t, b.userId, 500);
    const { order } = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['monthly']),
    });
    await next(b.email, RECEIPT);
    await refund(order.iden);
    const credits = await next(b.email, REFUND);
    expect(credits.text).toContain('Given back: 300 credits');
    expect(credits.text).toContain('Taken back: Monthly subscription (its subscription time has ended)');
    const ended = await next(b.email, ENDED);
    expect(ended.text).toContain(
      `your subscription Monthly subscription has ended with the refund of its order ${ref(order.iden)}.`,
    );
    expect(ended.text).toContain('None of its time is left.');
  });

  it('sends a receipt for each renewal once, and a notice when the subscription ends', async () => {
    const b = await registerUser(t);
    const placed = await checkout(b.token, { provider: 'card', products: 'monthly' });
    await stripe.pay(sessionIdOf(placed.payment.url));
    const receipt = await next(b.email, RECEIPT);
    expect(receipt.text).toContain(`Monthly subscription\n  Quantity: 1, Unit price: ${usd(299)}, Total: ${usd(299)}`);
    expect(receipt.text).toContain('Paid with: card, through Stripe');
    const { orders } = await ok<{ orders: { iden: string; payment: { refs: { kind: string; ref: string }[] } }[] }>(
      t,
      '/api/admin/orders/list',
      { token: admin.token, provider: 'card', page: 1, pageSize: 100 },
    );
    const subscription = orders
      .find((o) => o.iden === placed.order.iden)
      ?.payment.refs.find((r) => r.kind === 'subscription')?.ref;
    expect(subscription).toMatch(/^sub_/);

    const events = await stripe.renew(subscription!);
    const renewal = await next(b.email, RENEWAL);
    expect(renewal.subject).toBe(`Till: Your subscription was renewed (order ${ref(placed.order.iden)})`);
    expect(renewal.text).toContain(
      `your subscription Monthly subscription (order ${ref(placed.order.iden)}) was renewed.`,
    );
    expect(renewal.text).toMatch(new RegExp(`Paid: \\${usd(299)}, \\w+ \\d{1,2}, \\d{4}`));
    const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string }[] }>(
      t,
      '/api/store/entitlements',
      { token: b.token },
    );
    const until = new Date(entitlements.find((e) => e.productId === 'monthly')!.expiresAt);
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(until);
    expect(renewal.text).toContain(`Your subscription now runs until ${day}`);
    // The same renewal delivered again grants nothing and sends nothing.
    const invoice = events.find((e) => e.type === 'invoice.paid')!;
    expect((await stripe.deliver(hook, invoice, { secret })).status).toBe(200);

    await stripe.cancelSubscription(subscription!);
    const ended = await next(b.email, ENDED);
    expect(ended.text).toContain(
      `your subscription Monthly subscription (order ${ref(placed.order.iden)}) has ended: it will not renew.`,
    );
    expect(ended.text).toContain(`You keep what it gives you until ${day}`);
    expect((await allSent(placed.order.iden)).map((r) => r.kind)).toEqual(['receipt', 'renewal', 'subscription_end']);
    expect(mailsTo(b.email, RENEWAL)).toHaveLength(1);
  });

  it('tells of a card refund once Stripe has given the money back, and of none Stripe refused', async () => {
    const b = await registerUser(t);
    const placed = await checkout(b.token, { provider: 'card', products: 'credits-100' });
    await stripe.pay(sessionIdOf(placed.payment.url));
    await next(b.email, RECEIPT);
    await refund(placed.order.iden, { amount: 50, keepGrants: true });
    const notice = await next(b.email, REFUND);
    expect(notice.text).toContain(`Given back: ${usd(50)}`);
    expect(notice.text).toContain('Taken back: nothing: this refund is of money only');

    for (let i = 0; i < 3; i += 1) stripe.failNext(500, { type: 'api_error', message: 'Something went wrong' });
    const refused = await t.call('/api/admin/orders/refund', {
      token: admin.token,
      iden: placed.order.iden,
      amount: 20,
      keepGrants: true,
    });
    expect(refused.code).toBe(910);
    // The refund Stripe refused is undone, and its notice with it.
    const rows = await allSent(placed.order.iden);
    expect(rows.map((r) => r.kind)).toEqual(['receipt', 'refund']);
    expect(await runJob(Date.now() + 3_600_000)).toBe(0);
    expect(mailsTo(b.email, REFUND)).toHaveLength(1);

    // The whole refund goes through Stripe: its confirmation tells of the rest of the money and the credits.
    await refund(placed.order.iden);
    const whole = await next(b.email, REFUND);
    expect(whole.text).toContain(`Given back: ${usd(199 - 50)}`);
    expect(whole.text).toContain('Taken back: 100 credits');
  });

  it('tells once when a subscription bought once runs out', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 300);
    const { order } = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['monthly']),
    });
    await next(b.email, RECEIPT);
    const [time] = await t.ctx.db.kysely
      .selectFrom('entitlements')
      .select('expires_at')
      .where('order_id', '=', order.iden)
      .execute();
    const until = Number(time!.expires_at);
    expect(await runJob(until - 1)).toBe(0);
    expect(await runJob(until + 1)).toBe(1);
    const ended = await next(b.email, ENDED);
    expect(ended.text).toContain(`your subscription Monthly subscription (order ${ref(order.iden)}) has run out.`);
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(until);
    expect(ended.text).toContain(`Its time ran out on ${day}`);
    expect(await runJob(until + 60_000)).toBe(0);
    expect((await allSent(order.iden)).map((r) => r.kind)).toEqual(['receipt', 'subscription_end']);
  });

  it('does not tell that a subscription ran out while another of its order lasts', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 300);
    const { order } = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['monthly']),
    });
    await next(b.email, RECEIPT);
    const db = t.ctx.db.kysely;
    const [time] = await db.selectFrom('entitlements').selectAll().where('order_id', '=', order.iden).execute();
    const until = Number(time!.expires_at);
    // A second period of the same order, ending ten days later.
    await db
      .insertInto('entitlements')
      .values({ ...time!, id: `${time!.id}-later`, starts_at: until, expires_at: until + 10 * 86_400_000 })
      .execute();
    expect(await runJob(until + 1)).toBe(0);
    // Once that one is revoked, the order's time ended with the first.
    await db.updateTable('entitlements').set({ revoked_at: until }).where('id', '=', `${time!.id}-later`).execute();
    expect(await runJob(until + 2)).toBe(1);
    await next(b.email, ENDED);
    expect((await allSent(order.iden)).map((r) => r.kind)).toEqual(['receipt', 'subscription_end']);
  });

  it('writes to a German account in German, with the German product titles', async () => {
    const b = await registerUser(t, { name: 'Bea', lang: 'de' });
    const order = await sandboxOrder(b.token, { products: 'monthly;credits-100' });
    const mail = await next(b.email, /^Till: Deine Quittung für Bestellung #/);
    expect(mail.subject).toBe(`Till: Deine Quittung für Bestellung ${ref(order.iden)}`);
    expect(mail.text).toContain(`Hallo Bea, danke für deine Bestellung ${ref(order.iden)}. Hier ist deine Quittung.`);
    expect(mail.text).toContain('Monatsabo\n  Menge: 1, Stückpreis: 2,99 $, Betrag: 2,99 $');
    expect(mail.text).toContain('100 Credits\n  Menge: 1, Stückpreis: 1,99 $, Betrag: 1,99 $');
    expect(mail.text).toContain('Summe: 4,98 $');
    expect(mail.text).toContain('Bezahlt mit: die Sandbox-Kasse');
    expect(mail.text).toContain(`Deine Bestellung: ${t.url}/orders/${order.iden}`);
    expect(mail.html).toContain('<html lang="de">');

    await refund(order.iden);
    const notice = await next(b.email, /^Till: Erstattung deiner Bestellung #/);
    expect(notice.text).toContain('Zurückgegeben: 4,98 $');
    expect(notice.text).toContain('Zurückgenommen: 100 Credits; Monatsabo (die Abo-Zeit ist beendet)');
    const ended = await next(b.email, /^Till: Dein Abo ist beendet/);
    expect(ended.text).toContain(
      `dein Abo Monatsabo ist mit der Erstattung seiner Bestellung ${ref(order.iden)} beendet.`,
    );
  });

  it('tells a buyer once, in their language, that a payment which came after they cancelled was given back', async () => {
    const b = await registerUser(t, { name: 'Bea', lang: 'de' });
    const placed = await checkout(b.token, { provider: 'card', products: 'credits-100' });
    await ok(t, '/api/store/cancelOrder', { token: b.token, iden: placed.order.iden });
    // The buyer paid on Stripe's page before the cancel reached it: the completion arrives late.
    const events = await stripe.pay(sessionIdOf(placed.payment.url));
    const mail = await next(b.email, LATE);
    expect(mail.subject).toBe(`Till: Deine Zahlung für Bestellung ${ref(placed.order.iden)} wurde zurückgegeben`);
    expect(mail.text).toContain(
      `Hallo Bea, deine Zahlung für Bestellung ${ref(placed.order.iden)} kam an, nachdem die Bestellung storniert war`,
    );
    expect(mail.text).toContain('Zurückgegeben: 1,99 $');
    expect(mail.text).toContain('Bezahlt mit: Karte, über Stripe');
    expect(mail.text).toContain(`Deine Bestellung: ${t.url}/orders/${placed.order.iden}`);
    expect(mail.html).toContain('<html lang="de">');
    await stripe.flush();
    // Stripe sends the completion again, and its refund's events arrive: nothing more is told.
    const completed = events.find((e) => e.type === 'checkout.session.completed')!;
    expect((await stripe.deliver(hook, completed, { secret })).status).toBe(200);
    const rows = await allSent(placed.order.iden);
    expect(rows.map((r) => [r.kind, r.sent_at != null])).toEqual([['late_refund', true]]);
    expect(await runJob(Date.now() + 3_600_000)).toBe(0);
    expect(mailsTo(b.email, LATE)).toHaveLength(1);
    expect(mailsTo(b.email, RECEIPT)).toHaveLength(0);
  });

  it('tells nothing of a late payment Stripe would not give back', async () => {
    const b = await registerUser(t);
    const placed = await checkout(b.token, { provider: 'card', products: 'credits-100' });
    await ok(t, '/api/store/cancelOrder', { token: b.token, iden: placed.order.iden });
    stripe.webhook = undefined;
    const [completed] = await stripe.pay(sessionIdOf(placed.payment.url));
    stripe.webhook = { url: hook, secret };
    for (let i = 0; i < 3; i += 1) stripe.failNext(500, { type: 'api_error', message: 'Something went wrong' });
    expect((await stripe.deliver(hook, completed!, { secret })).status).toBe(200);
    expect(await allSent(placed.order.iden)).toEqual([]);
    expect(await runJob(Date.now() + 3_600_000)).toBe(0);
    expect(stripe.requests.filter((r) => r.idempotencyKey === `till-refund-${placed.order.iden}`)).toHaveLength(3);
    expect(mailsTo(b.email, /^Till: /)).toEqual([]);
  });

  it('removes the rows of mails sent longer ago than the retention, and keeps the rest', async () => {
    const retention = t.ctx.config.mailOutboxRetentionDays * DAY_MS;
    expect(retention).toBe(60 * DAY_MS);
    const b = await registerUser(t);
    const old = await sandboxOrder(b.token, { products: 'credits-100' });
    await next(b.email, RECEIPT);
    const [sent] = await allSent(old.iden);
    const sentAt = Number(sent!.sent_at);
    // A mail still owed (a failed send, due again later) is kept whatever its age.
    smtpDown = true;
    let owed: Placed['order'];
    try {
      owed = await sandboxOrder(b.token, { products: 'pro-unlock' });
      while (!(await queued(owed.iden))[0]?.last_error) await new Promise((r) => setTimeout(r, 25));
    } finally {
      smtpDown = false;
    }
    const [unsent] = await queued(owed.iden);
    // Sending it stays for the job (`due_at` far ahead); only pruning is looked at here.
    await t.ctx.db.kysely
      .updateTable('mail_outbox')
      .set({ due_at: sentAt + 2 * retention })
      .where('id', '=', unsent!.id)
      .execute();

    // The job prunes as it runs: a mail sent exactly the retention ago stays, one sent longer ago goes.
    await runJob(sentAt + retention);
    expect(await queued(old.iden)).toHaveLength(1);
    await runJob(sentAt + retention + 1);
    expect(await queued(old.iden)).toEqual([]);
    expect(await queued(owed.iden)).toMatchObject([{ id: unsent!.id, sent_at: null }]);
    // What it removed stays removed: the payment redelivered queues and sends nothing again.
    expect(await notifyPaid(old)).toMatchObject({ applied: false });
    expect(await notifyPaid(old, `evt-again-${old.iden}`)).toMatchObject({ applied: false });
    expect(await queued(old.iden)).toEqual([]);
    expect(mailsTo(b.email, RECEIPT)).toHaveLength(1);
    await t.ctx.db.kysely.deleteFrom('mail_outbox').where('id', '=', unsent!.id).execute();
  });

  it('keeps a mail that could not be sent after the commit, and the job sends it once later', async () => {
    const b = await registerUser(t);
    smtpDown = true;
    let order: Placed['order'];
    try {
      order = await sandboxOrder(b.token, { products: 'credits-100' });
      // The order is paid whatever the mail server does; the receipt waits with the reason it failed.
      for (;;) {
        const [row] = await queued(order.iden);
        if (row?.last_error) {
          expect(row).toMatchObject({ kind: 'receipt', sent_at: null, attempts: 1 });
          expect(row.last_error).toContain('ECONNREFUSED');
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      smtpDown = false;
    }
    expect(mailsTo(b.email, RECEIPT)).toHaveLength(0);
    // Not yet due again: the job leaves it until its pause is over.
    expect(await runJob(Date.now())).toBe(0);
    expect(await runJob(Date.now() + 3_600_000)).toBe(1);
    expectReceiptBasics(await next(b.email, RECEIPT), order.iden);
    expect(await runJob(Date.now() + 7_200_000)).toBe(0);
    expect(mailsTo(b.email, RECEIPT)).toHaveLength(1);
  });
});
