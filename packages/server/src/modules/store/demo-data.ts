import { ProductType } from '@till/protocol';
import type { StoreDeps } from './deps.js';

const DEMO_KEY = 'demo_data';

/**
 * Loads a small catalog and a few coupons on a new database outside production, so that a new user
 * can try every way of buying at once. A marker row makes it happen once per database: the insert
 * of the marker and of the data commit together, and a second start (or a second copy of the server
 * starting at the same moment) finds the marker and loads nothing.
 */
export async function loadDemoData(deps: StoreDeps): Promise<boolean> {
  if (deps.config.production) return false;
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('store_meta')
      .values({ key: DEMO_KEY, value: 'loaded', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marked) return false;
    // A database that already has a catalog of its own is not new: leave it alone.
    const existing = await trx.selectFrom('products').select('id').limit(1).executeTakeFirst();
    if (existing) return false;
    const product = { description: '', image_url: null, active: 1, created_at: now, updated_at: now };
    await trx
      .insertInto('products')
      .values([
        {
          ...product,
          id: 'credits-100',
          alias: 'credits-100',
          title: '100 credits',
          description: 'A pack of 100 credits to spend in the store.',
          type: ProductType.Consumable,
          price_amount: 199,
          price_currency: 'USD',
          credit_price: null,
          grant_credits: 100,
          grant_period: null,
          store_ids: JSON.stringify({ appstore: 'till.credits100', googleplay: 'till.credits100' }),
          sort: 1,
        },
        {
          ...product,
          id: 'pro-unlock',
          alias: 'pro-unlock',
          title: 'Pro unlock',
          description: 'Unlocks the pro features for good.',
          type: ProductType.NonConsumable,
          price_amount: 499,
          price_currency: 'USD',
          credit_price: 500,
          grant_credits: null,
          grant_period: null,
          store_ids: JSON.stringify({ appstore: 'till.pro_unlock', googleplay: 'till.pro_unlock' }),
          sort: 2,
        },
        {
          ...product,
          id: 'monthly',
          alias: 'monthly',
          title: 'Monthly subscription',
          description: 'One month of the subscription.',
          type: ProductType.Subscription,
          price_amount: 299,
          price_currency: 'USD',
          credit_price: 300,
          grant_credits: null,
          grant_period: 'P1M',
          store_ids: JSON.stringify({ appstore: 'till.monthly', googleplay: 'till.monthly' }),
          sort: 3,
        },
      ])
      .execute();
    const coupon = {
      percent_off: null,
      amount_off: null,
      amount_currency: null,
      grant_credits: null,
      grant_products: null,
      applies_to: null,
      min_total: null,
      min_total_currency: null,
      starts_at: null,
      ends_at: null,
      usage_limit: null,
      per_user_limit: null,
      active: 1,
      batch: null,
      created_at: now,
      updated_at: now,
    };
    await trx
      .insertInto('coupons')
      .values([
        { ...coupon, code: 'WELCOME10', kind: 'discount', percent_off: 10 },
        { ...coupon, code: 'FREE100', kind: 'grant', grant_credits: 100, per_user_limit: 1 },
        { ...coupon, code: 'ONCE', kind: 'grant', grant_credits: 50, usage_limit: 1 },
      ])
      .execute();
    return true;
  });
}

const DEMO_TEXTS_KEY = 'demo_texts';

/** German texts of the demo products. */
const DEMO_TEXTS: { productId: string; lang: string; title: string; description: string }[] = [
  {
    productId: 'credits-100',
    lang: 'de',
    title: '100 Credits',
    description: 'Ein Paket mit 100 Credits für Einkäufe im Shop.',
  },
  {
    productId: 'pro-unlock',
    lang: 'de',
    title: 'Pro freischalten',
    description: 'Schaltet die Pro-Funktionen dauerhaft frei.',
  },
  { productId: 'monthly', lang: 'de', title: 'Monatsabo', description: 'Ein Monat des Abonnements.' },
];

/**
 * Gives the demo products their German texts, once per database outside production (its own marker,
 * so databases whose demo catalog was loaded before translations existed get them too). Only demo
 * products still there and not yet translated are touched: an administrator's texts stay.
 */
export async function loadDemoTexts(deps: StoreDeps): Promise<number> {
  if (deps.config.production) return 0;
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('store_meta')
      .values({ key: DEMO_TEXTS_KEY, value: 'loaded', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marked) return 0;
    const ids = DEMO_TEXTS.map((t) => t.productId);
    const present = new Set(
      (await trx.selectFrom('products').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
    );
    let added = 0;
    for (const text of DEMO_TEXTS) {
      if (!present.has(text.productId)) continue;
      const row = await trx
        .insertInto('product_texts')
        .values({
          product_id: text.productId,
          lang: text.lang,
          title: text.title,
          description: text.description,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['product_id', 'lang']).doNothing())
        .returning('product_id')
        .executeTakeFirst();
      if (row) added += 1;
    }
    return added;
  });
}
