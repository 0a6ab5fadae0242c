import { describe, expect, it } from 'vitest';
import de from '@/i18n/de.json';
import en from '@/i18n/en.json';
import screens from '@/i18n/en.screens.json';
import { createI18n, loadScreenTexts } from './i18n';

/** Every text's path, plural forms folded into their base key. */
function paths(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? paths(value as object, `${prefix}${key}.`)
      : [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

describe('texts', () => {
  it('splits English into the first screen and the others with nothing in both', () => {
    const first = Object.keys(en);
    expect(first.filter((section) => section in screens)).toEqual([]);
    expect(first.sort()).toEqual(['common', 'errors', 'nav', 'store']);
  });

  it('has the same texts in German as in English', () => {
    const english = [...new Set([...paths(en), ...paths(screens)])].sort();
    expect([...new Set(paths(de))].sort()).toEqual(english);
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
