import { describe, expect, it } from 'vitest';
import de from '@/i18n/de.json';
import en from '@/i18n/en.json';
import screens from '@/i18n/en.screens.json';
import { createI18n, loadScreenTexts } from './i18n';

/**
 * Every text's path, plural forms as they are (`items_one`, `items_other`): English and German have
 * the same plural forms, so a form missing in one language is a text missing there.
 */
function paths(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? paths(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('texts', () => {
  it('splits English into the first screen and the others with nothing in both', () => {
    const first = Object.keys(en);
    expect(first.filter((section) => section in screens)).toEqual([]);
    expect(first.sort()).toEqual(['common', 'errors', 'nav', 'store']);
  });

  it('has every text of every screen in German and in English, each plural form too', () => {
    const english = new Set([...paths(en), ...paths(screens)]);
    const german = new Set(paths(de));
    expect([...english].filter((key) => !german.has(key)).sort(), 'missing in de.json').toEqual([]);
    expect([...german].filter((key) => !english.has(key)).sort(), 'missing in en.json or en.screens.json').toEqual([]);
    // The plural forms Intl.PluralRules asks for in each language are the ones written.
    for (const [lang, keys] of [
      ['en', english],
      ['de', german],
    ] as const) {
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const key of keys) {
        const base = /^(.*)_(zero|one|two|few|many|other)$/.exec(key)?.[1];
        // A plural has an `_other` form (`too_many` is a reason, not a plural of `too`).
        if (!base || !keys.has(`${base}_other`)) continue;
        for (const form of forms) expect(keys.has(`${base}_${form}`), `${lang}: ${base}_${form}`).toBe(true);
      }
    }
  });

  it('adds the other screens to an instance once they are loaded', async () => {
    const i18n = createI18n('en');
    expect(i18n.t('nav.signIn')).toBe('Sign in');
    expect(i18n.exists('auth.forgot')).toBe(false);
    await loadScreenTexts(i18n);
    await loadScreenTexts(i18n);
    expect(i18n.t('auth.signIn')).toBe('Sign in');
    expect(i18n.t('cart.empty')).toBe('Your cart is empty.');
    expect(i18n.t('store.title')).toBe('Store');
  });
});
