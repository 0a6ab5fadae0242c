import { escapeHtml } from '../http/html.js';

/** Money in minor units. */
export interface Money {
  amount: number;
  currency: string;
}
/** What something cost: money, or credits from the buyer's balance. */
export type Price = { money: Money } | { credits: number };

/** One line of an order as the buyer reads it: the title in their language. */
export interface MailLine {
  title: string;
  quantity: number;
  unit: Price;
  total: Price;
}

interface Common {
  name: string;
  /** The order as the buyer reads it (`#30310E`) and its page in the web app. */
  ref: string;
  link: string;
}

/** The receipt of a paid order. */
export interface ReceiptMail extends Common {
  kind: 'receipt';
  lines: MailLine[];
  subtotal: Price;
  coupon: { code: string; discount: Price | null } | null;
  total: Price;
  /** The payment route: a provider's name, or `credits`. */
  route: string;
  paidAt: number;
}

/** What a refund took back of what the order gave. */
export interface TakenBack {
  credits: number;
  /** Titles of what the buyer no longer owns. */
  owned: string[];
  /** Titles of subscriptions whose time ended. */
  subscriptions: string[];
}

/** Money (or credits) given back, and what went with it: nothing when `moneyOnly`. */
export interface RefundMail extends Common {
  kind: 'refund';
  /** What went back to the buyer: money, or the credits the order cost. */
  refunded: Price;
  at: number;
  moneyOnly: boolean;
  takenBack: TakenBack;
  chargeback: boolean;
}

/** A subscription's renewal was paid. */
export interface RenewalMail extends Common {
  kind: 'renewal';
  titles: string[];
  paid: Price | null;
  route: string;
  at: number;
  until: number | null;
}

/** Why a subscription ended: the provider ended it, its order was refunded, or its time ran out. */
export type SubscriptionEndReason = 'cancelled' | 'refunded' | 'expired';

/** A subscription ended: it will not renew, and its time runs out (or has). */
export interface SubscriptionEndMail extends Common {
  kind: 'subscription_end';
  titles: string[];
  reason: SubscriptionEndReason;
  /** When its time runs out, or ran out; null when none is left. */
  until: number | null;
  now: number;
}

/**
 * A payment arrived for an order that could no longer be paid (the buyer had cancelled it, or it
 * had failed), and its money was given back at once.
 */
export interface LateRefundMail extends Common {
  kind: 'late_refund';
  /** What the order had become when the payment arrived. */
  status: 'cancelled' | 'failed';
  refunded: Price;
  route: string;
  at: number;
}

export type ShopMail = ReceiptMail | RefundMail | RenewalMail | SubscriptionEndMail | LateRefundMail;

type Block = { p: string } | { rows: [string, string][] } | { table: { head: string[]; rows: string[][] } };

interface Texts {
  subject(m: ShopMail): string;
  hello(name: string): string;
  route(route: string, free: boolean): string;
  receipt: {
    intro(ref: string): string;
    head: [string, string, string, string];
    subtotal: string;
    coupon(code: string): string;
    total: string;
    paidAt: string;
    payment: string;
  };
  refund: {
    intro(ref: string, chargeback: boolean): string;
    refunded: string;
    at: string;
    takenBack: string;
    credits(n: number): string;
    owned(title: string): string;
    subscription(title: string): string;
    moneyOnly: string;
    nothing: string;
  };
  renewal: { intro(titles: string, ref: string): string; paid: string; payment: string; until(date: string): string };
  lateRefund: {
    intro(ref: string, status: LateRefundMail['status']): string;
    refunded: string;
    payment: string;
    at: string;
    note: string;
  };
  end: {
    cancelled(titles: string, ref: string): string;
    refunded(titles: string, ref: string): string;
    expired(titles: string, ref: string): string;
    runsUntil(date: string): string;
    ranOut(date: string): string;
    none: string;
  };
  credits(n: number): string;
  orderLink: string;
}

const en: Texts = {
  subject: (m) =>
    ({
      receipt: `Your receipt for order ${m.ref}`,
      refund: `Refund of your order ${m.ref}`,
      renewal: `Your subscription was renewed (order ${m.ref})`,
      subscription_end: `Your subscription has ended (order ${m.ref})`,
      late_refund: `Your payment for order ${m.ref} was given back`,
    })[m.kind],
  hello: (name) => `Hello ${name},`,
  route: (route, free) =>
    free
      ? 'nothing to pay'
      : ((
          {
            default: 'the sandbox checkout (a test payment: no real money moved)',
            card: 'card, through Stripe',
            paywall: 'Paymentwall',
            appstore: 'the App Store',
            googleplay: 'Google Play',
            test: "the store's test purchase (no money taken)",
            credits: 'your Till credits',
          } as Record<string, string>
        )[route] ?? route),
  receipt: {
    intro: (ref) => `thank you for your order ${ref}. This is your receipt.`,
    head: ['Product', 'Quantity', 'Unit price', 'Total'],
    subtotal: 'Subtotal',
    coupon: (code) => `Coupon ${code}`,
    total: 'Total',
    paidAt: 'Paid on',
    payment: 'Paid with',
  },
  refund: {
    intro: (ref, chargeback) =>
      chargeback
        ? `the payment for your order ${ref} was reversed (a chargeback).`
        : `we have refunded your order ${ref}.`,
    refunded: 'Given back',
    at: 'On',
    takenBack: 'Taken back',
    credits: (n) => `${n} credits`,
    owned: (title) => `${title} (no longer yours)`,
    subscription: (title) => `${title} (its subscription time has ended)`,
    moneyOnly: 'nothing: this refund is of money only, and you keep everything the order gave you',
    nothing: 'nothing',
  },
  renewal: {
    intro: (titles, ref) => `your subscription ${titles} (order ${ref}) was renewed. Thank you!`,
    paid: 'Paid',
    payment: 'Paid with',
    until: (date) => `Your subscription now runs until ${date}.`,
  },
  lateRefund: {
    intro: (ref, status) =>
      `your payment for order ${ref} arrived after the order had ${status === 'cancelled' ? 'been cancelled' : 'failed'}, so it could no longer be used. We have given the money back in full.`,
    refunded: 'Given back',
    payment: 'Paid with',
    at: 'On',
    note: 'Nothing was granted for this order. Depending on your bank, the money can take a few days to show.',
  },
  end: {
    cancelled: (titles, ref) => `your subscription ${titles} (order ${ref}) has ended: it will not renew.`,
    refunded: (titles, ref) => `your subscription ${titles} has ended with the refund of its order ${ref}.`,
    expired: (titles, ref) => `your subscription ${titles} (order ${ref}) has run out.`,
    runsUntil: (date) => `You keep what it gives you until ${date}.`,
    ranOut: (date) => `Its time ran out on ${date}.`,
    none: 'None of its time is left.',
  },
  credits: (n) => `${n} credits`,
  orderLink: 'Your order',
};

const de: Texts = {
  subject: (m) =>
    ({
      receipt: `Deine Quittung für Bestellung ${m.ref}`,
      refund: `Erstattung deiner Bestellung ${m.ref}`,
      renewal: `Dein Abo wurde verlängert (Bestellung ${m.ref})`,
      subscription_end: `Dein Abo ist beendet (Bestellung ${m.ref})`,
      late_refund: `Deine Zahlung für Bestellung ${m.ref} wurde zurückgegeben`,
    })[m.kind],
  hello: (name) => `Hallo ${name},`,
  route: (route, free) =>
    free
      ? 'nichts zu zahlen'
      : ((
          {
            default: 'die Sandbox-Kasse (eine Testzahlung: es floss kein echtes Geld)',
            card: 'Karte, über Stripe',
            paywall: 'Paymentwall',
            appstore: 'den App Store',
            googleplay: 'Google Play',
            test: 'den Testkauf des Stores (es wurde kein Geld abgebucht)',
            credits: 'deine Till-Credits',
          } as Record<string, string>
        )[route] ?? route),
  receipt: {
    intro: (ref) => `danke für deine Bestellung ${ref}. Hier ist deine Quittung.`,
    head: ['Produkt', 'Menge', 'Stückpreis', 'Betrag'],
    subtotal: 'Zwischensumme',
    coupon: (code) => `Gutschein ${code}`,
    total: 'Summe',
    paidAt: 'Bezahlt am',
    payment: 'Bezahlt mit',
  },
  refund: {
    intro: (ref, chargeback) =>
      chargeback
        ? `die Zahlung für deine Bestellung ${ref} wurde zurückgebucht (Rückbuchung).`
        : `wir haben deine Bestellung ${ref} erstattet.`,
    refunded: 'Zurückgegeben',
    at: 'Am',
    takenBack: 'Zurückgenommen',
    credits: (n) => `${n} Credits`,
    owned: (title) => `${title} (gehört dir nicht mehr)`,
    subscription: (title) => `${title} (die Abo-Zeit ist beendet)`,
    moneyOnly: 'nichts: erstattet wurde nur Geld, und du behältst alles, was die Bestellung dir gegeben hat',
    nothing: 'nichts',
  },
  renewal: {
    intro: (titles, ref) => `dein Abo ${titles} (Bestellung ${ref}) wurde verlängert. Danke!`,
    paid: 'Bezahlt',
    payment: 'Bezahlt mit',
    until: (date) => `Dein Abo läuft jetzt bis ${date}.`,
  },
  lateRefund: {
    intro: (ref, status) =>
      `deine Zahlung für Bestellung ${ref} kam an, nachdem die Bestellung ${status === 'cancelled' ? 'storniert' : 'fehlgeschlagen'} war, und konnte nicht mehr verwendet werden. Wir haben dir das Geld vollständig zurückgegeben.`,
    refunded: 'Zurückgegeben',
    payment: 'Bezahlt mit',
    at: 'Am',
    note: 'Für diese Bestellung wurde nichts gutgeschrieben. Je nach Bank kann es ein paar Tage dauern, bis du das Geld siehst.',
  },
  end: {
    cancelled: (titles, ref) => `dein Abo ${titles} (Bestellung ${ref}) ist beendet: es wird nicht mehr verlängert.`,
    refunded: (titles, ref) => `dein Abo ${titles} ist mit der Erstattung seiner Bestellung ${ref} beendet.`,
    expired: (titles, ref) => `dein Abo ${titles} (Bestellung ${ref}) ist abgelaufen.`,
    runsUntil: (date) => `Was es dir gibt, behältst du bis ${date}.`,
    ranOut: (date) => `Seine Zeit ist am ${date} abgelaufen.`,
    none: 'Von seiner Zeit ist nichts übrig.',
  },
  credits: (n) => `${n} Credits`,
  orderLink: 'Deine Bestellung',
};

// The languages shop mails are written in; any other `lang` falls back to English.
const catalogs: Record<string, Texts> = { en, de };

/**
 * Formatters kept by language (and currency), built once: each `Intl` formatter is an ICU object of
 * tens of kilobytes, and a receipt built four of them anew. At hundreds of purchases a second their
 * destructors ran by the thousand after a garbage collection, on the event loop, in one go: pauses of
 * 380-640 ms on a quiet machine, up to 2 s on a busy one, that held every request (bench/README.md,
 * "backup"). Languages and currencies are few; the cache forgets its oldest entry past {@link FORMATTERS}.
 */
const FORMATTERS = 64;
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function kept<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = build();
    if (formatters.size >= FORMATTERS) formatters.delete(formatters.keys().next().value as string);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Money in minor units as the reader's language writes it (2 digits for USD, none for JPY). */
export function formatMoney(money: Money, lang: string): string {
  const digits =
    kept(
      `money:en:${money.currency}`,
      () => new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }),
    ).resolvedOptions().maximumFractionDigits ?? 2;
  return kept(
    `money:${lang}:${money.currency}`,
    () => new Intl.NumberFormat(lang, { style: 'currency', currency: money.currency }),
  ).format(money.amount / 10 ** digits);
}

/** A moment as the reader's language writes it, in UTC (the mail cannot know the reader's zone). */
export function formatDate(millis: number, lang: string): string {
  const date = kept(`date:${lang}`, () => new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }));
  const time = kept(
    `time:${lang}`,
    () => new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' }),
  );
  return `${date.format(millis)}, ${time.format(millis)} UTC`;
}

function blocksOf(m: ShopMail, t: Texts, lang: string): Block[] {
  const price = (p: Price) => ('money' in p ? formatMoney(p.money, lang) : t.credits(p.credits));
  const date = (ms: number) => formatDate(ms, lang);
  switch (m.kind) {
    case 'receipt': {
      const r = t.receipt;
      const free = 'money' in m.total && m.total.money.amount === 0 && m.route !== 'credits';
      const rows: [string, string][] = [[r.subtotal, price(m.subtotal)]];
      if (m.coupon) rows.push([r.coupon(m.coupon.code), m.coupon.discount ? `−${price(m.coupon.discount)}` : '—']);
      rows.push([r.total, price(m.total)], [r.paidAt, date(m.paidAt)], [r.payment, t.route(m.route, free)]);
      return [
        { p: `${t.hello(m.name)} ${r.intro(m.ref)}` },
        {
          table: {
            head: [...r.head],
            rows: m.lines.map((l) => [l.title, String(l.quantity), price(l.unit), price(l.total)]),
          },
        },
        { rows },
      ];
    }
    case 'refund': {
      const r = t.refund;
      const taken = [
        ...(m.takenBack.credits > 0 ? [r.credits(m.takenBack.credits)] : []),
        ...m.takenBack.owned.map(r.owned),
        ...m.takenBack.subscriptions.map(r.subscription),
      ];
      return [
        { p: `${t.hello(m.name)} ${r.intro(m.ref, m.chargeback)}` },
        {
          rows: [
            [r.refunded, price(m.refunded)],
            [r.at, date(m.at)],
            [r.takenBack, m.moneyOnly ? r.moneyOnly : taken.length ? taken.join('; ') : r.nothing],
          ],
        },
      ];
    }
    case 'renewal': {
      const r = t.renewal;
      return [
        { p: `${t.hello(m.name)} ${r.intro(m.titles.join(', '), m.ref)}` },
        {
          rows: [
            ...(m.paid ? [[r.paid, `${price(m.paid)}, ${date(m.at)}`] as [string, string]] : []),
            [r.payment, t.route(m.route, false)],
          ],
        },
        ...(m.until ? [{ p: r.until(date(m.until)) }] : []),
      ];
    }
    case 'subscription_end': {
      const e = t.end;
      const titles = m.titles.join(', ');
      const left = m.until == null ? e.none : m.until > m.now ? e.runsUntil(date(m.until)) : e.ranOut(date(m.until));
      return [{ p: `${t.hello(m.name)} ${e[m.reason](titles, m.ref)}` }, { p: left }];
    }
    case 'late_refund': {
      const r = t.lateRefund;
      return [
        { p: `${t.hello(m.name)} ${r.intro(m.ref, m.status)}` },
        {
          rows: [
            [r.refunded, price(m.refunded)],
            [r.payment, t.route(m.route, false)],
            [r.at, date(m.at)],
          ],
        },
        { p: r.note },
      ];
    }
  }
}

function textOf(blocks: Block[]): string {
  return blocks
    .map((b) => {
      if ('p' in b) return b.p;
      if ('rows' in b) return b.rows.map(([k, v]) => `${k}: ${v}`).join('\n');
      const [, quantity, unit, total] = b.table.head;
      return b.table.rows
        .map(([title, q, u, sum]) => `${title}\n  ${quantity}: ${q}, ${unit}: ${u}, ${total}: ${sum}`)
        .join('\n');
    })
    .join('\n\n');
}

const cell = 'padding:4px 8px;border-bottom:1px solid #ddd;text-align:left';

function htmlOf(blocks: Block[]): string {
  return blocks
    .map((b) => {
      if ('p' in b) return `<p>${escapeHtml(b.p)}</p>`;
      if ('rows' in b) {
        const rows = b.rows.map(
          ([k, v]) => `<tr><th style="${cell}">${escapeHtml(k)}</th><td style="${cell}">${escapeHtml(v)}</td></tr>`,
        );
        return `<table style="border-collapse:collapse">${rows.join('')}</table>`;
      }
      const head = b.table.head.map((h) => `<th style="${cell}">${escapeHtml(h)}</th>`).join('');
      const rows = b.table.rows.map(
        (r) => `<tr>${r.map((c) => `<td style="${cell}">${escapeHtml(c)}</td>`).join('')}</tr>`,
      );
      return `<table style="border-collapse:collapse;margin:12px 0"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    })
    .join('');
}

/** Renders a shop mail in the language closest to `lang`, as plain text and HTML. */
export function renderShopMail(mail: ShopMail, lang: string): { subject: string; text: string; html: string } {
  const base = lang.toLowerCase().split('-')[0] ?? 'en';
  const t = catalogs[base] ?? en;
  const locale = catalogs[base] ? base : 'en';
  const blocks = blocksOf(mail, t, locale);
  const text = `${textOf(blocks)}\n\n${t.orderLink}: ${mail.link}`;
  const button = `<p><a href="${escapeHtml(mail.link)}" style="display:inline-block;padding:10px 16px;background:#1b5e20;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(t.orderLink)} ${escapeHtml(mail.ref)}</a></p><p style="font-size:12px;color:#555">${escapeHtml(mail.link)}</p>`;
  const html = `<!doctype html><html lang="${escapeHtml(locale)}"><body style="font-family:sans-serif;line-height:1.5">${htmlOf(blocks)}${button}</body></html>`;
  return { subject: `Till: ${t.subject(mail)}`, text, html };
}
