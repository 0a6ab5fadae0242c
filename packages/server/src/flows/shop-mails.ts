import { orderRef, pickLanguage, ProductType, type ShopLanguage } from '@till/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Job } from '../db/jobs.js';
import { readJson, type Executor } from '../db/rows.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { MailOutbox, noMailQueued, queueMail, type OutboxRow } from '../mail/outbox.js';
import {
  renderShopMail,
  type MailLine,
  type Price,
  type ShopMail,
  type SubscriptionEndReason,
} from '../mail/shop-templates.js';
import {
  findOrderRow,
  itemsOf,
  runOutSubscriptions,
  subscriptionEndOf,
  titlesIn,
  type OrderItemRow,
  type OrderRow,
} from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/**
 * The mails a shop sends its buyers: a receipt for every paid order, a notice of every refund, and
 * for subscriptions a receipt for every renewal and a notice when one ends.
 *
 * Each is queued in `mail_outbox` inside the transaction of its cause, under a key naming the cause,
 * so a mail exists exactly when its cause committed, and a cause applied once more (a provider
 * redelivering an event) finds the key taken and queues nothing. After the commit the flow hands the
 * new mails to {@link ShopMails.after}, which sends them without holding up the answer; what a crash
 * or a failing mail server leaves unsent, the `flows.shop-mails` job sends later
 * ([010](../../../../docs/decisions/010-shop-mails-through-an-outbox.md)).
 */

/** What a refund notice says beyond the order: money back, and what went with it. */
interface RefundData {
  amount: number;
  currency: string;
  /** Credits the order cost, given back to the buyer. */
  creditsBack: number;
  at: number;
  moneyOnly: boolean;
  chargeback: boolean;
  creditsTaken: number;
  owned: string[];
  subscriptions: string[];
}

const isSubscription = (i: Pick<OrderItemRow, 'type' | 'grant_period'>) =>
  i.type === ProductType.Subscription && i.grant_period != null;

/** Queues the receipt of an order just paid, in the transaction that paid it. */
export function queueReceipt(x: Executor, order: Pick<OrderRow, 'id' | 'user_id'>, now: number) {
  return queueMail(x, { key: `receipt:${order.id}`, kind: 'receipt', userId: order.user_id, orderId: order.id }, now);
}

/**
 * Queues the notice of a refund in its transaction. `key` names the refund: the order for a
 * whole-order refund (an order is refunded whole once), the refund's own id for money only.
 * `hold` keeps it unsent until the provider has accepted the refund ({@link releaseMail}).
 */
export function queueRefund(
  x: Executor,
  order: Pick<OrderRow, 'id' | 'user_id' | 'currency' | 'credits_spent'>,
  refund: {
    key: string;
    amount: number;
    moneyOnly: boolean;
    items?: OrderItemRow[];
    chargeback?: boolean;
    /** Credits granted that could not be taken back (spent already). */
    shortfall?: number;
    hold?: number;
  },
  now: number,
) {
  const items = refund.moneyOnly ? [] : (refund.items ?? []);
  const granted = items.reduce((sum, i) => sum + (i.grant_credits ?? 0) * i.quantity, 0);
  const data: RefundData = {
    amount: refund.amount,
    currency: order.currency,
    creditsBack: refund.moneyOnly ? 0 : order.credits_spent,
    at: now,
    moneyOnly: refund.moneyOnly,
    chargeback: refund.chargeback ?? false,
    creditsTaken: Math.max(0, granted - (refund.shortfall ?? 0)),
    owned: items.filter((i) => i.type === ProductType.NonConsumable).map((i) => i.product_id),
    subscriptions: items.filter(isSubscription).map((i) => i.product_id),
  };
  return queueMail(
    x,
    {
      key: `refund:${refund.key}`,
      kind: 'refund',
      userId: order.user_id,
      orderId: order.id,
      data: { ...data },
      ...(refund.hold ? { dueAt: now + refund.hold } : {}),
    },
    now,
  );
}

/** Queues the receipt of a subscription's renewal, in the transaction that granted its time. */
export async function queueRenewal(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id' | 'total' | 'currency'>,
  renewal: { eventId: string; amount?: number | undefined; currency?: string | undefined },
  now: number,
) {
  const until = await subscriptionEndOf(trx, order.id);
  const paid = { amount: renewal.amount ?? order.total, currency: renewal.currency ?? order.currency };
  return queueMail(
    trx,
    {
      key: `renewal:${order.id}:${renewal.eventId}`,
      kind: 'renewal',
      userId: order.user_id,
      orderId: order.id,
      data: { ...paid, at: now, until },
    },
    now,
  );
}

/**
 * Queues the notice that an order's subscription ended (cancelled at the provider, or refunded), once
 * per order whatever ends it: the first cause tells the buyer, a later one (the provider's end after
 * a refund) finds the key taken. Nothing for an order without a subscription.
 */
export async function queueSubscriptionEnd(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id'>,
  reason: 'cancelled' | 'refunded',
  now: number,
  items?: OrderItemRow[],
) {
  if (!(items ?? (await itemsOf(trx, order.id))).some(isSubscription)) return undefined;
  return queueMail(
    trx,
    {
      key: `subscription_end:${order.id}`,
      kind: 'subscription_end',
      userId: order.user_id,
      orderId: order.id,
      data: { reason },
    },
    now,
  );
}

/**
 * Queues the notice that a payment which arrived for an order no longer payable (cancelled, or
 * failed) is given back, in the transaction of the payment's event, held until the provider has
 * taken the refund: its yes releases it, its no drops it. One per order, as the provider's refund
 * of an order is one, whatever payments arrive for it.
 */
export function queueLateRefund(
  x: Executor,
  order: Pick<OrderRow, 'id' | 'user_id' | 'status'>,
  paid: { amount: number; currency: string },
  now: number,
  hold: number,
) {
  return queueMail(
    x,
    {
      key: lateRefundKey(order.id),
      kind: 'late_refund',
      userId: order.user_id,
      orderId: order.id,
      data: { ...paid, status: order.status, at: now },
      dueAt: now + hold,
    },
    now,
  );
}

export const lateRefundKey = (orderId: string) => `late_refund:${orderId}`;

/** Routes whose subscriptions never renew: bought once, their time runs out. */
const ONE_OFF_ROUTES = ['credits', 'default', 'test'];
/** How far back the job looks for time that ran out: a server that was down that long tells no one. */
const EXPIRY_LOOKBACK_MS = 7 * 86_400_000;

/**
 * Queues the notice that a subscription bought once (with credits, through the sandbox) has run out,
 * for every paid order whose live subscription time ended in the last week and was not told of its
 * end yet. A subscription a provider renews is told of its end by the provider's event instead: its
 * time may run out for a while before a late renewal arrives.
 */
export async function queueExpiries(db: Kysely<Database>, now: number, limit = 200): Promise<string[]> {
  const ran = await runOutSubscriptions(db, {
    routes: ONE_OFF_ROUTES,
    since: now - EXPIRY_LOOKBACK_MS,
    now,
    limit,
    untold: (orderId) => noMailQueued('subscription_end:', orderId),
  });
  const ids: string[] = [];
  for (const order of ran) {
    const key = `subscription_end:${order.id}`;
    const mail = {
      key,
      kind: 'subscription_end',
      userId: order.user_id,
      orderId: order.id,
      data: { reason: 'expired' },
    };
    const id = await queueMail(db, mail, now);
    if (id) ids.push(id);
  }
  return ids;
}

/** How many sent mails one run of the job removes at most. */
const PRUNE_BATCH = 1_000;

/** Sends the queued shop mails: right after their commit, and by the job for what is left. */
export class ShopMails {
  private readonly outbox: MailOutbox;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: FlowDeps & { mailer: Mailer }) {
    this.outbox = new MailOutbox(deps.db);
  }

  /** After the commit of their cause: sends these mails without holding up the answer. */
  after(ids: readonly (string | undefined)[]): void {
    for (const id of ids) {
      if (!id) continue;
      const task = this.deliver(id)
        .then(() => undefined)
        .finally(() => this.pending.delete(task));
      this.pending.add(task);
    }
  }

  /** Waits for the mails on their way (the app does so as it closes). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /**
   * Queues the notices of subscriptions that ran out, then sends what is due and unsent: those, and
   * mails a crash or a failing mail server left behind. Answers how many it sent. Last, it removes
   * the rows of mails sent more than `MAIL_OUTBOX_RETENTION_DAYS` ago.
   */
  job(): Job {
    return {
      name: 'flows.shop-mails',
      everyMs: 60_000,
      run: async (now) => {
        await queueExpiries(this.deps.db, now);
        let sent = 0;
        for (const id of await this.outbox.due(now, 100)) if (await this.deliver(id, now)) sent += 1;
        await this.prune(now);
        return sent;
      },
    };
  }

  /**
   * Removes the rows of mails sent longer ago than the retention, a batch at a time (what is left
   * goes on the next run). Their keys are free again, which is safe: every cause but a subscription
   * running out happens once, and the job looks back only a week for that one's notice, less than
   * the retention can be.
   */
  async prune(now: number, batch = PRUNE_BATCH): Promise<number> {
    const before = now - this.deps.config.mailOutboxRetentionDays * 86_400_000;
    const pruned = await this.outbox.prune(before, batch);
    if (pruned) this.deps.log.info({ pruned }, 'sent shop mails past their retention removed');
    return pruned;
  }

  /** Claims one mail, sends it and marks it sent; a failure is kept on the row for the next try. */
  async deliver(id: string, now = this.deps.now()): Promise<boolean> {
    const row = await this.outbox.claim(id, now);
    if (!row) return false;
    try {
      const message = await this.compose(row, now);
      if (message) await this.deps.mailer.send(message);
      await this.outbox.sent(id, now);
      return Boolean(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.log.error({ mail: id, kind: row.kind, err: reason }, 'shop mail not sent');
      await this.outbox.failed(row, now, reason);
      return false;
    }
  }

  /** The mail as its reader gets it, in their language, from the order as it is; none for a deleted account. */
  private async compose(row: OutboxRow, now: number) {
    const { db, config } = this.deps;
    const user = await this.deps.buyers.recipient(row.user_id);
    const order = row.order_id ? await findOrderRow(db, row.order_id) : undefined;
    if (!user || !order) return undefined;
    const lang = pickLanguage(user.lang);
    const items = await itemsOf(db, order.id);
    const titles = await lineTitles(db, items, lang);
    const common = {
      name: user.name,
      ref: `#${orderRef(order.id)}`,
      link: `${config.publicUrl}/orders/${encodeURIComponent(order.id)}`,
    };
    const mail = await this.mailOf(row, order, items, titles, common, now);
    return {
      to: user.email,
      // The same mail sent again (after a crash between the send and its mark) keeps its id.
      messageId: `<${row.id}@till.shop>`,
      ...renderShopMail(mail, lang),
    };
  }

  private async mailOf(
    row: OutboxRow,
    order: OrderRow,
    items: OrderItemRow[],
    titles: Map<string, string>,
    common: { name: string; ref: string; link: string },
    now: number,
  ): Promise<ShopMail> {
    const title = (id: string) => titles.get(id) ?? id;
    const money = (amount: number, currency = order.currency): Price => ({ money: { amount, currency } });
    const subscriptions = items.filter(isSubscription).map((i) => title(i.product_id));
    switch (row.kind) {
      case 'receipt': {
        const credits = order.provider === 'credits';
        const lines: MailLine[] = items.map((i) => {
          const unit = credits ? (i.credit_price ?? 0) : (i.price_amount ?? 0);
          const price = (n: number): Price => (credits ? { credits: n } : money(n));
          return {
            title: title(i.product_id),
            quantity: i.quantity,
            unit: price(unit),
            total: price(unit * i.quantity),
          };
        });
        return {
          kind: 'receipt',
          ...common,
          lines,
          subtotal: credits ? { credits: order.credits_spent } : money(order.subtotal),
          coupon: order.coupon_code
            ? { code: order.coupon_code, discount: order.discount > 0 ? money(order.discount) : null }
            : null,
          total: credits ? { credits: order.credits_spent } : money(order.total),
          route: order.provider,
          paidAt: order.paid_at ?? row.created_at,
        };
      }
      case 'refund': {
        const d = readJson<RefundData>(row.data, {} as RefundData);
        return {
          kind: 'refund',
          ...common,
          refunded: d.creditsBack > 0 && d.amount === 0 ? { credits: d.creditsBack } : money(d.amount, d.currency),
          at: d.at,
          moneyOnly: d.moneyOnly,
          chargeback: d.chargeback,
          takenBack: {
            credits: d.creditsTaken,
            owned: d.owned.map(title),
            subscriptions: d.subscriptions.map(title),
          },
        };
      }
      case 'renewal': {
        const d = readJson<{ amount: number; currency: string; at: number; until: number | null }>(row.data, {
          amount: 0,
          currency: order.currency,
          at: row.created_at,
          until: null,
        });
        return {
          kind: 'renewal',
          ...common,
          titles: subscriptions,
          paid: money(d.amount, d.currency),
          route: order.provider,
          at: d.at,
          until: d.until,
        };
      }
      case 'subscription_end': {
        const { reason } = readJson<{ reason: SubscriptionEndReason }>(row.data, { reason: 'cancelled' });
        // The time as it is when the mail goes: what is left of it, or when it ran out.
        const until = await subscriptionEndOf(this.deps.db, order.id);
        return { kind: 'subscription_end', ...common, titles: subscriptions, reason, until, now };
      }
      case 'late_refund': {
        const d = readJson<{ amount: number; currency: string; status: 'cancelled' | 'failed'; at: number }>(row.data, {
          amount: order.total,
          currency: order.currency,
          status: 'cancelled',
          at: row.created_at,
        });
        return {
          kind: 'late_refund',
          ...common,
          status: d.status,
          refunded: money(d.amount, d.currency),
          route: order.provider,
          at: d.at,
        };
      }
      default:
        throw new Error(`unknown shop mail ${row.kind}`);
    }
  }
}

/** Each line's title in `lang` where the catalog has one, else the title the order was made with. */
async function lineTitles(x: Executor, items: OrderItemRow[], lang: ShopLanguage): Promise<Map<string, string>> {
  const lines = await titlesIn(
    x,
    items.map((i) => ({ productId: i.product_id, title: i.title })),
    lang,
  );
  return new Map(lines.map((l) => [l.productId, l.title]));
}
