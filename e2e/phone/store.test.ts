import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeGoogle, PACKAGE, SECRET } from '@till/test-support/fake-google-play';
import { saveProduct } from '@till/test-support/store';
import { mailedToken, PASSWORD, screenshotIfFailed, type Env } from '../support/env.js';
import { signIn, waitForText } from '../support/flows.js';
import { NativeSide, PHONE_ORIGIN } from './native-side.js';
import { PlayAccount, type PlayProduct } from './play-billing.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

// The Android app buying through Google Play: the plugin's native side is play-billing.ts (Google
// Play Billing on the phone), Google's servers are the Play Developer API's fake, and the server
// verifies every purchase there before it pays an order. Demo catalog: credits-100 (consumable,
// till.credits100, no credit price), pro-unlock (non-consumable, till.pro_unlock, 500 credits),
// monthly (a subscription this Play Console does not list).

/** What the Play Console lists, priced as Google shows them to a buyer in Germany. */
const PLAY_PRODUCTS: PlayProduct[] = [
  {
    productId: 'till.credits100',
    title: '100 credits',
    description: 'A pack of 100 credits.',
    formattedPrice: '2,29 €',
    priceMicros: 2_290_000,
    currency: 'EUR',
  },
  {
    productId: 'till.pro_unlock',
    title: 'Pro unlock',
    description: 'The pro features for good.',
    formattedPrice: '5,49 €',
    priceMicros: 5_490_000,
    currency: 'EUR',
  },
];

/** The Google Play configuration that points the server at the fake. */
function playEnv(google: FakeGoogle): Record<string, string> {
  return {
    GOOGLE_PLAY_PACKAGE_NAME: PACKAGE,
    GOOGLE_SERVICE_ACCOUNT: JSON.stringify(google.serviceAccount),
    GOOGLE_PUSH_SECRET: SECRET,
    GOOGLE_PLAY_API_URL: google.url,
    GOOGLE_TOKEN_URL: `${google.url}/token`,
    GOOGLE_CERTS_URL: `${google.url}/certs`,
  };
}

/** A Google account on Play whose purchases Google's servers (the fake) then know, as a real one's are. */
function playAccount(google: FakeGoogle): PlayAccount {
  const account = new PlayAccount(PACKAGE, PLAY_PRODUCTS);
  account.onPurchase = (p) =>
    google.products.set(p.purchaseToken, {
      productId: p.productId,
      purchaseTimeMillis: String(p.purchaseTime),
      purchaseState: 0,
      consumptionState: 0,
      acknowledgementState: 0,
      orderId: p.orderId,
      quantity: p.quantity,
      regionCode: 'DE',
    });
  return account;
}

async function confirmedUser(env: Env, email: string): Promise<void> {
  expect((await env.app.call('/api/register', { email, password: PASSWORD, name: 'Greta', lang: 'en' })).code).toBe(
    900,
  );
  const token = await mailedToken(env, email, /Confirm your e-mail/, 'confirm');
  expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);
}

/** The payment routes the checkout offers, by the server's names. */
const routesOffered = (page: Page) =>
  page.getByRole('radio').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

async function signedInPhone(env: Env, native: NativeSide, email: string): Promise<Phone> {
  const phone = await openPhone(env, native);
  await phone.open('/login');
  await signIn(phone.page, email, PASSWORD);
  await phone.page.getByRole('button', { name: /^Account of/ }).waitFor();
  return phone;
}

describe('the Android app with Google Play, web payments hidden (the default)', () => {
  let env: Env;
  let google: FakeGoogle;
  let account: PlayAccount;
  let phone: Phone | undefined;
  let second: Phone | undefined;
  let token = '';
  const user = 'greta@example.test';

  beforeAll(async () => {
    google = new FakeGoogle();
    await google.start();
    env = await startPhoneEnv('nobody@example.test', { env: playEnv(google) });
    // Sold on the web only: no store id, no credit price.
    await saveProduct(env.app, {
      alias: 'workshop',
      title: 'Live workshop',
      type: 1,
      price: { amount: 4900, currency: 'USD' },
      grants: {},
    });
    await confirmedUser(env, user);
    const login = await env.app.call('/api/login', { email: user, password: PASSWORD });
    token = String(login.token);
    account = playAccount(google);
    phone = await signedInPhone(env, new NativeSide(account), user);
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page, second: second?.page }));
  afterAll(async () => {
    await second?.close();
    await phone?.close();
    await env?.close();
    await google?.close();
  });

  const serverData = async <T>(path: string, body: Record<string, unknown> = {}) => {
    const res = await env.app.call(path, { token, ...body });
    expect(res.code).toBe(900);
    return res.data as T;
  };

  it("shows Google Play's own price strings, and a product it does not sell as not available in the app", async () => {
    const { page } = phone!;
    await page.goto(`${PHONE_ORIGIN}/`);
    const credits = page.getByRole('listitem').filter({ hasText: '100 credits' });
    await credits.getByText('2,29 €').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Pro unlock' }).getByText('5,49 €').waitFor();
    // The server's own prices are not the app's.
    expect(await page.getByText('$1.99').count()).toBe(0);
    // The app asked Play about the products the server sells there, and Play answered the ones it lists.
    expect(phone!.native.billing.queried.flat()).toEqual(
      expect.arrayContaining(['till.credits100', 'till.pro_unlock', 'till.monthly']),
    );

    const workshop = page.getByRole('listitem').filter({ hasText: 'Live workshop' });
    await workshop.getByText('Not available in the app.').waitFor();
    expect(await workshop.getByRole('button', { name: 'Add to cart: Live workshop' }).count()).toBe(0);
    expect(await workshop.getByText('$49.00').count()).toBe(0);
    await page.goto(`${PHONE_ORIGIN}/products/workshop`);
    await waitForText(page, 'This product is not available in the app.', 20_000);
    expect(await page.getByRole('button', { name: 'Buy now' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
  });

  it('buys two packs of credits through Google Play: each verified by the server, the orders paid and 200 credits granted', async () => {
    const { page, native } = phone!;
    await page.goto(`${PHONE_ORIGIN}/`);
    await page.getByRole('button', { name: 'Add to cart: 100 credits' }).click();
    await page.goto(`${PHONE_ORIGIN}/cart`);
    await page.getByRole('button', { name: 'One more 100 credits' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('radio', { name: /Google Play/ }).waitFor();
    // The store's route alone: no web route inside the app, and this cart has no credit price.
    expect(await routesOffered(page)).toEqual(['googleplay']);
    // Two units at the store's price: what Google Play will charge.
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toContain('€4.58');

    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(`${PHONE_ORIGIN}/orders`);

    // Two purchases on the phone, each a unit of the product, each consumed once the server had it.
    const bought = account.made.filter((p) => p.productId === 'till.credits100');
    expect(bought).toHaveLength(2);
    await expect.poll(() => account.owned.length).toBe(0);
    const buys = native.calls.filter((c) => c.pluginId === 'PurchasePlugin' && c.methodName === 'buy');
    expect(buys.map((c) => c.options.productId)).toEqual(['till.credits100', 'till.credits100']);
    // The server asked Google about each and consumed each there.
    expect(google.count('products.consume')).toBe(2);
    expect(google.count('products.acknowledge')).toBe(2);

    const orders = await serverData<{ orders: { provider: string; status: string; items: { productId: string }[] }[] }>(
      '/api/store/orders',
      { status: 'paid' },
    );
    expect(orders.orders).toHaveLength(2);
    for (const o of orders.orders) {
      expect(o).toMatchObject({ provider: 'googleplay', status: 'paid' });
      expect(o.items.map((i) => i.productId)).toEqual(['credits-100']);
    }
    expect((await serverData<{ balance: number }>('/api/store/credits')).balance).toBe(200);
    // The cart holds nothing the store sold.
    await page.goto(`${PHONE_ORIGIN}/cart`);
    await waitForText(page, 'Your cart is empty', 20_000);
  });

  it('offers credits bought elsewhere beside the store, and no web route', async () => {
    const { page } = phone!;
    await page.goto(`${PHONE_ORIGIN}/`);
    await page.getByRole('button', { name: 'Add to cart: Pro unlock' }).click();
    await page.goto(`${PHONE_ORIGIN}/checkout`);
    await page.getByRole('radio', { name: /Google Play/ }).waitFor();
    expect(await routesOffered(page)).toEqual(['googleplay', 'credits']);
    expect(await page.getByRole('radio', { name: /Sandbox checkout/ }).count()).toBe(0);
  });

  it('buys Pro unlock, and Restore purchases on a new phone verifies it with the server again and names it', async () => {
    const { page } = phone!;
    await page.goto(`${PHONE_ORIGIN}/checkout`);
    await page.getByRole('radio', { name: /Google Play/ }).check();
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toContain('€5.49');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(`${PHONE_ORIGIN}/orders`);
    const pro = account.made.find((p) => p.productId === 'till.pro_unlock');
    expect(pro).toBeDefined();
    // A non-consumable stays the buyer's on Play: acknowledged, not consumed.
    await expect
      .poll(() => account.owned.map((p) => [p.productId, p.acknowledged]))
      .toEqual([['till.pro_unlock', true]]);
    const owned = await serverData<{ entitlements: { productId: string; active: boolean }[] }>(
      '/api/store/entitlements',
    );
    expect(owned.entitlements.filter((e) => e.active).map((e) => e.productId)).toEqual(['pro-unlock']);
    expect(google.count('products.consume')).toBe(2);

    // Another phone with the same Google account: a fresh install knows nothing of the purchase.
    second = await signedInPhone(env, new NativeSide(account), user);
    const verified: string[] = [];
    second.page.on('request', (r) => {
      if (r.url() === `${env.url}/api/store/validatePurchase`) verified.push(r.postData() ?? '');
    });
    await second.page.goto(`${PHONE_ORIGIN}/orders`);
    await second.page.getByRole('button', { name: 'Restore purchases' }).click();
    await second.page.getByRole('status').filter({ hasText: 'Restored: Pro unlock.' }).waitFor();
    // Play listed the purchase again, and the server was asked about it again.
    const listed = second.native.calls.filter(
      (c) => c.pluginId === 'PurchasePlugin' && c.methodName === 'getPurchases',
    );
    expect(listed.length).toBeGreaterThan(0);
    expect(verified.some((body) => body.includes(pro!.purchaseToken))).toBe(true);
    // Verified again, granted once: still one paid Pro unlock order.
    const orders = await serverData<{ orders: { items: { productId: string }[] }[] }>('/api/store/orders', {
      status: 'paid',
    });
    expect(orders.orders.filter((o) => o.items.some((i) => i.productId === 'pro-unlock'))).toHaveLength(1);
  });
});

describe('the Android app while the server shows web payments in the apps', () => {
  let env: Env;
  let google: FakeGoogle;
  let phone: Phone | undefined;
  const user = 'hanna@example.test';

  beforeAll(async () => {
    google = new FakeGoogle();
    await google.start();
    env = await startPhoneEnv('nobody@example.test', { env: { ...playEnv(google), APP_WEB_PAYMENTS: 'shown' } });
    await saveProduct(env.app, {
      alias: 'workshop',
      title: 'Live workshop',
      type: 1,
      price: { amount: 4900, currency: 'USD' },
      grants: {},
    });
    await confirmedUser(env, user);
    phone = await signedInPhone(env, new NativeSide(playAccount(google)), user);
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page }));
  afterAll(async () => {
    await phone?.close();
    await env?.close();
    await google?.close();
  });

  it('offers the store first and the web routes beside it, and sells on the web what the store does not', async () => {
    const { page } = phone!;
    await page.goto(`${PHONE_ORIGIN}/`);
    const workshop = page.getByRole('listitem').filter({ hasText: 'Live workshop' });
    // Once the app knows the server's setting: the server's price, to be paid on a web route.
    await workshop.getByText("Not sold in the app's store.").waitFor();
    expect(await workshop.getByText('$49.00').count()).toBe(1);
    expect(await workshop.getByText('Not available in the app.').count()).toBe(0);
    expect(await workshop.getByRole('button', { name: 'Add to cart: Live workshop' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Add to cart: 100 credits' }).click();
    await page.goto(`${PHONE_ORIGIN}/checkout`);
    await page.getByRole('radio', { name: /Google Play/ }).waitFor();
    expect(await routesOffered(page)).toEqual(['googleplay', 'default']);
  });
});
