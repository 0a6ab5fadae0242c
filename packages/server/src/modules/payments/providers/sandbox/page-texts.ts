import { pickLanguage, type Money, type ShopLanguage } from '@till/protocol';

/** The sandbox page's texts, in every shop language. */
const TEXTS = {
  en: {
    checkout: 'Checkout',
    sandbox: 'Test checkout: no money is taken.',
    pay: (amount: string) => `Pay ${amount}`,
    decline: 'Decline (test a failed payment)',
    cancel: 'Cancel the payment and return to your order',
    back: 'Back to your order',
    discount: (code: string) => `Discount (${code})`,
    total: 'Total',
    item: 'Item',
    price: 'Price',
    order: 'Your order',
    notFound: 'Order not found',
    badLink: 'This payment link is not valid.',
    notPossible: 'Payment not possible',
    status: {
      paid: 'Payment received. Thank you!',
      failed: 'The payment was declined.',
      cancelled: 'This order was cancelled.',
      refunded: 'This order was refunded.',
    } as Record<string, string>,
  },
  de: {
    checkout: 'Bezahlen',
    sandbox: 'Testkasse: Es wird kein Geld abgebucht.',
    pay: (amount: string) => `${amount} bezahlen`,
    decline: 'Ablehnen (fehlgeschlagene Zahlung testen)',
    cancel: 'Zahlung abbrechen und zurück zur Bestellung',
    back: 'Zurück zur Bestellung',
    discount: (code: string) => `Rabatt (${code})`,
    total: 'Summe',
    item: 'Artikel',
    price: 'Preis',
    order: 'Deine Bestellung',
    notFound: 'Bestellung nicht gefunden',
    badLink: 'Dieser Zahlungslink ist ungültig.',
    notPossible: 'Zahlung nicht möglich',
    status: {
      paid: 'Zahlung erhalten. Vielen Dank!',
      failed: 'Die Zahlung wurde abgelehnt.',
      cancelled: 'Diese Bestellung wurde storniert.',
      refunded: 'Diese Bestellung wurde erstattet.',
    } as Record<string, string>,
  },
} satisfies Record<ShopLanguage, unknown>;

export type PageTexts = (typeof TEXTS)['en'];

/** The page's language: the link's `lang`, else the browser's `Accept-Language`, else the default. */
export function pageLanguage(query: unknown, acceptLanguage: string | undefined): ShopLanguage {
  return pickLanguage(typeof query === 'string' ? query : undefined, acceptLanguage);
}

export function textsFor(lang: ShopLanguage): PageTexts {
  return TEXTS[lang];
}

/** An amount as the buyer reads it in their language (`$8.07`, `8,07 $`), never `8.07 USD`. */
export function formatMoney(m: Money, lang: ShopLanguage): string {
  const format = new Intl.NumberFormat(lang, { style: 'currency', currency: m.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(m.amount / 10 ** digits);
}
