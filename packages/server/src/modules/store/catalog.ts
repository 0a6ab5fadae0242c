import type { Selectable } from 'kysely';
import { ProductType, type Product, type productInput } from '@till/protocol';
import type { z } from 'zod';
import type { ProductsTable } from '../../db/schema.js';
import { fail, type Outcome } from '../../errors.js';
import { newId } from './ids.js';
import { readJson, type Executor } from '../../db/rows.js';
import { prepared } from '../../db/prepared.js';
import type { StoreDeps } from './deps.js';

export type ProductRow = Selectable<ProductsTable>;
type StoreIds = Product['storeIds'];

/** A product asked for, with how many. */
export interface Line {
  product: ProductRow;
  quantity: number;
}

/** Ids and aliases in `products` texts; anything else there is malformed (907). */
const REF = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_LINES = 50;

/** Whether a text is shaped like a product id or alias. */
export function isProductRef(text: string): boolean {
  return REF.test(text);
}

/** The product as the protocol shows it. */
export function toProduct(row: ProductRow): Product {
  const grants: Product['grants'] = {};
  if (row.grant_credits) grants.credits = row.grant_credits;
  if (row.grant_period) grants.period = row.grant_period;
  return {
    id: row.id,
    alias: row.alias,
    title: row.title,
    description: row.description,
    type: row.type as Product['type'],
    price:
      row.price_amount != null && row.price_currency
        ? { amount: row.price_amount, currency: row.price_currency }
        : null,
    creditPrice: row.credit_price,
    grants,
    imageUrl: row.image_url,
    storeIds: readJson<StoreIds>(row.store_ids, {}),
    active: Boolean(row.active),
  };
}

/**
 * Splits a `products` text (`a;b;a`) into references with counts. A repeated id is a quantity; an
 * empty piece or a piece that is not an id is malformed.
 */
export function parseProductRefs(
  text: string,
  separator: ';' | ',',
  parameter: string,
): Outcome<{ ref: string; quantity: number }[]> {
  const pieces = text.split(separator).map((p) => p.trim());
  if (pieces.length > MAX_LINES) return fail.invalidInput(parameter, 'too_long');
  const counts = new Map<string, number>();
  for (const piece of pieces) {
    if (!REF.test(piece)) return fail.invalidInput(parameter, piece ? 'invalid' : 'required');
    counts.set(piece, (counts.get(piece) ?? 0) + 1);
  }
  return [...counts].map(([ref, quantity]) => ({ ref, quantity }));
}

const productByRef = prepared<{ ref: string }, ProductRow>((db, p) =>
  db
    .selectFrom('products')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', p('ref')), eb('alias', '=', p('ref'))])),
);

/** Products: the buyer's view and the administrator's edits. */
export class Catalog {
  constructor(private readonly deps: StoreDeps) {}

  async listActive(): Promise<Product[]> {
    const rows = await this.deps.db
      .selectFrom('products')
      .selectAll()
      .where('active', '=', 1)
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
    return rows.map(toProduct);
  }

  async listAll(): Promise<Product[]> {
    const rows = await this.deps.db.selectFrom('products').selectAll().orderBy('sort').orderBy('created_at').execute();
    return rows.map(toProduct);
  }

  /** A product by id, or else by alias (ids win: an alias never shadows another product's id). */
  async find(ref: string, trx?: Executor): Promise<ProductRow | undefined> {
    // Ids and aliases are unique each, so at most two rows: the one whose id it is wins.
    const { rows } = await productByRef(trx ?? this.deps.db, { ref });
    return rows.find((row) => row.id === ref) ?? rows[0];
  }

  /**
   * Turns references into products that can be bought: 904 for one that does not exist, 907
   * `inactive` for one that is switched off. Two references to one product add up.
   */
  async resolve(
    refs: { ref: string; quantity: number }[],
    parameter: string,
    trx?: Executor,
  ): Promise<Outcome<Line[]>> {
    const lines = new Map<string, Line>();
    for (const { ref, quantity } of refs) {
      const product = await this.find(ref, trx);
      if (!product) return fail.notFound(parameter);
      if (!product.active) return fail.invalidInput(parameter, 'inactive');
      const seen = lines.get(product.id);
      if (seen) seen.quantity += quantity;
      else lines.set(product.id, { product, quantity });
    }
    for (const line of lines.values()) {
      // Owning something twice means nothing; a second copy is a mistake in the cart.
      if (line.product.type === ProductType.NonConsumable && line.quantity > 1)
        return fail.invalidInput(parameter, 'invalid');
    }
    return [...lines.values()];
  }

  /** The active product an in-app store id names (`till.credits100`), if any. */
  async findByStoreId(storeId: string): Promise<ProductRow | undefined> {
    const rows = await this.deps.db.selectFrom('products').selectAll().execute();
    return rows.find((row) => Object.values(readJson<StoreIds>(row.store_ids, {})).includes(storeId));
  }

  /** Creates a product, or replaces the one with `input.id`. Aliases and store ids stay unique. */
  async save(input: z.output<typeof productInput>): Promise<Outcome<Product>> {
    const now = this.deps.now();
    const db = this.deps.db;
    const existing = input.id
      ? await db.selectFrom('products').select('id').where('id', '=', input.id).executeTakeFirst()
      : undefined;
    let id = input.id;
    if (!id) id = (await this.find(input.alias)) ? `${input.alias}-${newId().slice(-6)}` : input.alias;
    // References resolve by id first, then alias: neither may point at a second product.
    const holder = await this.find(input.alias);
    if (holder && holder.id !== id) return fail.invalidInput('product.alias', 'taken');
    if (!existing && input.id) {
      const shadowed = await db.selectFrom('products').select('id').where('alias', '=', input.id).executeTakeFirst();
      if (shadowed) return fail.invalidInput('product.id', 'taken');
    }
    const others = (await db.selectFrom('products').select(['store_ids']).where('id', '!=', id).execute()).flatMap(
      (row) => Object.values(readJson<StoreIds>(row.store_ids, {})),
    );
    if (Object.values(input.storeIds).some((s) => others.includes(s)))
      return fail.invalidInput('product.storeIds', 'taken');
    const values = {
      alias: input.alias,
      title: input.title,
      description: input.description,
      type: input.type,
      price_amount: input.price?.amount ?? null,
      price_currency: input.price?.currency ?? null,
      credit_price: input.creditPrice,
      grant_credits: input.grants.credits ?? null,
      grant_period: input.grants.period ?? null,
      image_url: input.imageUrl,
      store_ids: JSON.stringify(input.storeIds),
      active: input.active ? 1 : 0,
      updated_at: now,
    };
    if (existing) await db.updateTable('products').set(values).where('id', '=', id).execute();
    else
      await db
        .insertInto('products')
        .values({ id, ...values, created_at: now })
        .execute();
    const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return toProduct(row);
  }
}
