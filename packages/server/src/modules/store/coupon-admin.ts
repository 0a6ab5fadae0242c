import type { AdminCoupon, adminCouponsBulkRequest, couponInput } from '@till/protocol';
import type { z } from 'zod';
import type { CouponsTable } from '../../db/schema.js';
import { fail, type Outcome } from '../../errors.js';
import { toCoupon, normalizeCode } from './coupons.js';
import { iso, pageOf } from '../../db/rows.js';
import type { StoreDeps } from './deps.js';
import { newCouponCode, newId } from './ids.js';
import type { CouponRow } from './pricing.js';

type CouponFields = Omit<z.output<typeof couponInput>, 'code'>;

export function toAdminCoupon(row: CouponRow): AdminCoupon {
  return {
    ...toCoupon(row),
    usageLimit: row.usage_limit,
    perUserLimit: row.per_user_limit,
    used: row.used,
    active: Boolean(row.active),
    batch: row.batch,
    createdAt: iso(row.created_at),
  };
}

/** The columns a coupon's fields give (the use counter is never written here). */
function columnsOf(c: CouponFields, now: number): Omit<CouponsTable, 'code' | 'used' | 'batch' | 'created_at'> {
  const discount = c.kind === 'discount';
  return {
    kind: c.kind,
    percent_off: discount ? (c.percentOff ?? null) : null,
    amount_off: discount ? (c.amountOff?.amount ?? null) : null,
    amount_currency: discount ? (c.amountOff?.currency ?? null) : null,
    grant_credits: discount ? null : (c.grantCredits ?? null),
    grant_products: !discount && c.grantProducts?.length ? JSON.stringify(c.grantProducts) : null,
    applies_to: c.appliesTo === 'all' ? null : JSON.stringify(c.appliesTo),
    min_total: c.minTotal?.amount ?? null,
    min_total_currency: c.minTotal?.currency ?? null,
    starts_at: c.startsAt ? Date.parse(c.startsAt) : null,
    ends_at: c.endsAt ? Date.parse(c.endsAt) : null,
    usage_limit: c.usageLimit,
    per_user_limit: c.perUserLimit,
    active: c.active ? 1 : 0,
    updated_at: now,
  };
}

/** Coupons as administrators make and list them. */
export class CouponAdmin {
  constructor(private readonly deps: StoreDeps) {}

  /** 907 when a coupon names a product that does not exist. */
  private async checkProducts(c: CouponFields): Promise<Outcome<true>> {
    const named = [...(c.grantProducts ?? []), ...(c.appliesTo === 'all' ? [] : c.appliesTo)];
    if (!named.length) return true;
    const found = await this.deps.db.selectFrom('products').select('id').where('id', 'in', named).execute();
    const known = new Set(found.map((r) => r.id));
    const missing = (c.grantProducts ?? []).some((id) => !known.has(id));
    if (missing) return fail.invalidInput('coupon.grantProducts', 'invalid');
    if (named.some((id) => !known.has(id))) return fail.invalidInput('coupon.appliesTo', 'invalid');
    return true;
  }

  /**
   * Creates a coupon or replaces the one with this code. Its use counter stays as it is; a limit
   * lowered below the uses already made is refused (907), since the database would refuse it too.
   */
  async save(input: z.output<typeof couponInput>): Promise<Outcome<AdminCoupon>> {
    const checked = await this.checkProducts(input);
    if (checked !== true) return checked;
    const code = normalizeCode(input.code);
    const now = this.deps.now();
    const db = this.deps.db;
    const existing = await db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
    const columns = columnsOf(input, now);
    if (existing) {
      if (columns.usage_limit != null && columns.usage_limit < existing.used) {
        return fail.invalidInput('coupon.usageLimit', 'too_short');
      }
      await db.updateTable('coupons').set(columns).where('code', '=', code).execute();
    } else {
      await db
        .insertInto('coupons')
        .values({ code, ...columns, batch: null, created_at: now })
        .onConflict((oc) => oc.column('code').doUpdateSet(columns))
        .execute();
    }
    return toAdminCoupon(await db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirstOrThrow());
  }

  /**
   * Switches a coupon off (buyers are refused with 908 `inactive`) or on again. Uses and limits stay;
   * orders already made with it keep their discount. 904 `code` for a code that does not exist.
   */
  async setActive(code: string, active: boolean): Promise<Outcome<AdminCoupon>> {
    const key = normalizeCode(code);
    const db = this.deps.db;
    const res = await db
      .updateTable('coupons')
      .set({ active: active ? 1 : 0, updated_at: this.deps.now() })
      .where('code', '=', key)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return fail.notFound('code');
    return toAdminCoupon(await db.selectFrom('coupons').selectAll().where('code', '=', key).executeTakeFirstOrThrow());
  }

  /** `count` codes usable once each, sharing one template and one batch name. */
  async bulk(input: z.output<typeof adminCouponsBulkRequest>): Promise<Outcome<{ batch: string; codes: string[] }>> {
    const fields: CouponFields = { ...input.coupon, usageLimit: 1, perUserLimit: 1 };
    const checked = await this.checkProducts(fields);
    if (checked !== true) return checked;
    const now = this.deps.now();
    const batch = `batch-${newId(now)}`;
    const columns = columnsOf(fields, now);
    const codes = new Set<string>();
    while (codes.size < input.count) codes.add(newCouponCode(input.prefix));
    const rows = [...codes].map((code) => ({ code, ...columns, batch, created_at: now }));
    await this.deps.db.transaction().execute(async (trx) => {
      // 50 bits of randomness per code make a clash with an existing code all but impossible; if one
      // happens, that code is simply skipped and the answer lists only the codes really made.
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto('coupons')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.column('code').doNothing())
          .execute();
      }
    });
    const made = await this.deps.db.selectFrom('coupons').select('code').where('batch', '=', batch).execute();
    return { batch, codes: made.map((r) => r.code) };
  }

  async list(input: { page: number; pageSize: number; query?: string | undefined }) {
    let q = this.deps.db.selectFrom('coupons');
    if (input.query) {
      const prefix = `${input.query.toUpperCase().replace(/[%_\\]/g, '')}%`;
      const batch = input.query;
      q = q.where((eb) => eb.or([eb('code', 'like', prefix), eb('batch', '=', batch)]));
    }
    const { offset, limit } = pageOf(input);
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('code')
      .offset(offset)
      .limit(limit)
      .execute();
    const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { coupons: rows.map(toAdminCoupon), total: Number(count.n) };
  }
}
