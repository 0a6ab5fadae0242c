import { z } from 'zod';

/**
 * The languages the shop speaks, the default first. Product texts are kept in the default language
 * on the product itself and in the others as translations; a text with no translation falls back to
 * the default language's.
 */
export const SHOP_LANGUAGES = ['en', 'de'] as const;
export type ShopLanguage = (typeof SHOP_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: ShopLanguage = 'en';
/** The languages a product's texts are translated into (every shop language but the default). */
export const TRANSLATED_LANGUAGES = ['de'] as const satisfies readonly ShopLanguage[];

export const shopLanguageSchema = z.enum(SHOP_LANGUAGES);

/**
 * The shop language for a language tag or an `Accept-Language` header (`de-DE,de;q=0.9,en;q=0.8`):
 * the first supported language in the order of preference, else the default.
 *
 * @example
 * pickLanguage('de-CH, en;q=0.5') // 'de'
 */
export function pickLanguage(...wanted: (string | null | undefined)[]): ShopLanguage {
  for (const text of wanted) {
    if (!text) continue;
    const tags = text
      .split(',')
      .map((part, index) => {
        const [tag = '', ...params] = part.trim().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
        return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, index };
      })
      .filter((t) => t.tag && t.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const { tag } of tags) {
      const base = tag.split('-')[0];
      const hit = SHOP_LANGUAGES.find((l) => l === base);
      if (hit) return hit;
    }
  }
  return DEFAULT_LANGUAGE;
}

/** A product's title and description in one language; an empty field falls back to the default language. */
export const productTextSchema = z.object({
  title: z.string().trim().max(200).default(''),
  description: z.string().max(5_000).default(''),
});
export type ProductText = z.infer<typeof productTextSchema>;

/** A product's translations by language (`{ de: { title, description } }`). */
export const productTextsSchema = z.partialRecord(z.enum(TRANSLATED_LANGUAGES), productTextSchema);
export type ProductTexts = z.infer<typeof productTextsSchema>;
