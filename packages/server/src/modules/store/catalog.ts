import type { Selectable } from 'kysely';
import {
  DEFAULT_LANGUAGE,
  ProductType,
  TRANSLATED_LANGUAGES,
  type AdminProduct,
  type Product,
  type ProductTexts,
  type productInput,
  type ShopLanguage,
} from '@till/protocol';
import type { z } from 'zod';
import type { ProductsTable } from '../../db/schema.js';
import { fail, type Outcome } from '../../errors.js';
import { newId } from './ids.js';
import { readJson, type Executor } from '../../db/rows.js';
import { CommitMemo } from '../../db/commit-memo.js';
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
  const pieces = text.split(separator);
  if (pieces.length > MAX_LINES) return fail.invalidInput(parameter, 'too_long');
  // At most MAX_LINES pieces: looking back through the list costs less than a map and its copy.
  const refs: { ref: string; quantity: number }[] = [];
  for (const raw of pieces) {
    const piece = raw.trim();
    if (!REF.test(piece)) return fail.invalidInput(parameter, piece ? 'invalid' : 'required');
    const same = refs.find((r) => r.ref === piece);
    if (same) same.quantity += 1;
    else refs.push({ ref: piece, quantity: 1 });
  }
  return refs;
}

/**
 * The product in one language: its translation's title and description where they are set, the
 * default language's where not (field by field).
 */
export function localize(product: Product, text: { title: string; description: string } | undefined): Product {
  if (!text) return product;
  return { ...product, title: text.title || product.title, description: text.description || product.description };
}

/** The translations of some products in one language, by product id. */
export async function textsIn(
  x: Executor,
  ids: readonly string[],
  lang: ShopLanguage,
): Promise<Map<string, { title: string; description: string }>> {
  if (lang === DEFAULT_LANGUAGE || !ids.length) return new Map();
  const rows = await x
    .selectFrom('product_texts')
    .select(['product_id', 'title', 'description'])
    .where('lang', '=', lang)
    .where('product_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.product_id, { title: r.title, description: r.description }]));
}

const productByRef = prepared<{ ref: string }, ProductRow>((db, p) =>
  db
    .selectFrom('products')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', p('ref')), eb('alias', '=', p('ref'))])),
);

/** The product `ref` names among `rows`: ids and aliases are unique each, and an id wins over an alias. */
function named(rows: readonly ProductRow[], ref: string): ProductRow | undefined {
  return rows.find((row) => row.id === ref) ?? rows.find((row) => row.alias === ref);
}

/** The table a product lookup reads: a commit that writes it empties the memo. */
const PRODUCT_TABLES = ['products'] as const;
/** Products kept at most (emptied when full): a shop sells far fewer, so only odd references fill it. */
const PRODUCT_MEMO_SIZE = 1_000;

/** Products: the buyer's view and the administrator's edits. */
export class Catalog {
  /** Products found, by reference, until a commit writes products (SQLite only). */
  private readonly memo: CommitMemo<Readonly<ProductRow>>;

  constructor(private readonly deps: StoreDeps) {
    this.memo = new CommitMemo(deps.version, PRODUCT_TABLES, PRODUCT_MEMO_SIZE);
  }

  /** The active catalog in the buyer's language (falling back to the default language). */
  async listActive(lang: ShopLanguage = DEFAULT_LANGUAGE): Promise<Product[]> {
    const rows = await this.deps.db
      .selectFrom('products')
      .selectAll()
      .where('active', '=', 1)
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
    const texts = await textsIn(
      this.deps.db,
      rows.map((r) => r.id),
      lang,
    );
    return rows.map((row) => localize(toProduct(row), texts.get(row.id)));
  }

  /** One product (by id or alias) in the buyer's language. */
  async findIn(ref: string, lang: ShopLanguage): Promise<Product | undefined> {
    const row = await this.find(ref);
    if (!row) return undefined;
    return localize(toProduct(row), (await textsIn(this.deps.db, [row.id], lang)).get(row.id));
  }

  /** Every product with its translations, as administrators edit them. */
  async listAll(): Promise<AdminProduct[]> {
    const rows = await this.deps.db.selectFrom('products').selectAll().orderBy('sort').orderBy('created_at').execute();
    const texts = await this.allTexts(rows.map((r) => r.id));
    return rows.map((row) => ({ ...toProduct(row), texts: texts.get(row.id) ?? {} }));
  }

  private async allTexts(ids: string[], x: Executor = this.deps.db): Promise<Map<string, ProductTexts>> {
    const out = new Map<string, ProductTexts>();
    if (!ids.length) return out;
    const rows = await x.selectFrom('product_texts').selectAll().where('product_id', 'in', ids).execute();
    for (const row of rows) {
      const lang = TRANSLATED_LANGUAGES.find((l) => l === row.lang);
      if (!lang) continue;
      const texts = out.get(row.product_id) ?? {};
      texts[lang] = { title: row.title, description: row.description };
      out.set(row.product_id, texts);
    }
    return out;
  }

  /**
   * A product by id, or else by alias (ids win: an alias never shadows another product's id).
   *
   * Outside a transaction, where the database counts commits per table ({@link StoreDeps.version},
   * SQLite), a product found is kept until a commit writes to products: every purchase and checkout
   * looks its products up, and they change only when an administrator saves one. Inside a transaction
   * the lookup always reads, so that it sees the transaction's own writes.
   */
  async find(ref: string, trx?: Executor): Promise<ProductRow | undefined> {
    const load = async () => {
      const { rows } = await productByRef(trx ?? this.deps.db, { ref });
      return named(rows, ref);
    };
    return trx ? load() : this.memo.read(ref, load);
  }

  /**
   * Products by id or alias, as {@link find} finds each, with every one that is not kept read in a
   * single query: a cart of several products is one round trip on PostgreSQL, not one per product.
   */
  async findAll(refs: readonly string[], trx?: Executor): Promise<Map<string, ProductRow>> {
    const found = new Map<string, ProductRow>();
    const version = trx ? undefined : this.memo.begin();
    const missing = new Set<string>();
    for (const ref of refs) {
      const kept = trx ? undefined : this.memo.get(ref);
      if (kept) found.set(ref, kept);
      else missing.add(ref);
    }
    if (missing.size === 1) {
      const ref = missing.values().next().value as string;
      const row = await this.find(ref, trx);
      if (row) found.set(ref, row);
    } else if (missing.size > 1) {
      const wanted = [...missing];
      const rows = await (trx ?? this.deps.db)
        .selectFrom('products')
        .selectAll()
        .where((eb) => eb.or([eb('id', 'in', wanted), eb('alias', 'in', wanted)]))
        .execute();
      for (const ref of wanted) {
        const row = named(rows, ref);
        if (!row) continue;
        found.set(ref, row);
        // Frozen only when kept, as `find` keeps them.
        if (version !== undefined) this.memo.keep(ref, Object.freeze(row), version);
      }
    }
    return found;
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
    const products = await this.findAll(
      refs.map((r) => r.ref),
      trx,
    );
    const lines = new Map<string, Line>();
    for (const { ref, quantity } of refs) {
      const product = products.get(ref);
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

  /** The type of the product an in-app store id names, the id given for `platform` first (see {@link findByStoreId}). */
  async typeOfStoreId(storeId: string, platform: string): Promise<number | undefined> {
    return (await this.findByStoreId(storeId, platform))?.type;
  }

  /**
   * The product an in-app store id names (`till.credits100`), if any. With `platform`, the product
   * that gives this id for that store comes first (one id may be given for several stores, or for
   * another store by mistake).
   */
  async findByStoreId(storeId: string, platform?: string): Promise<ProductRow | undefined> {
    const rows = await this.deps.db.selectFrom('products').selectAll().execute();
    const ids = rows.map((row) => ({ row, ids: readJson<Record<string, string | undefined>>(row.store_ids, {}) }));
    const found =
      (platform === undefined ? undefined : ids.find((r) => r.ids[platform] === storeId)) ??
      ids.find((r) => Object.values(r.ids).includes(storeId));
    return found?.row;
  }

  /**
   * Creates a product, or replaces the one with `input.id`, with its translations (a language left
   * out or left empty has none: its buyers read the default language). Aliases and store ids stay
   * unique.
   */
  async save(input: z.output<typeof productInput>): Promise<Outcome<AdminProduct>> {
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
    const productId = id;
    return db.transaction().execute(async (trx) => {
      if (existing) await trx.updateTable('products').set(values).where('id', '=', productId).execute();
      else
        await trx
          .insertInto('products')
          .values({ id: productId, ...values, created_at: now })
          .execute();
      await trx.deleteFrom('product_texts').where('product_id', '=', productId).execute();
      for (const lang of TRANSLATED_LANGUAGES) {
        const text = input.texts[lang];
        if (!text || (!text.title && !text.description.trim())) continue;
        await trx
          .insertInto('product_texts')
          .values({ product_id: productId, lang, title: text.title, description: text.description, updated_at: now })
          .execute();
      }
      const row = await trx.selectFrom('products').selectAll().where('id', '=', productId).executeTakeFirstOrThrow();
      return { ...toProduct(row), texts: (await this.allTexts([productId], trx)).get(productId) ?? {} };
    });
  }
}
