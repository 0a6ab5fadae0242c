import { describe, expect, it, vi } from 'vitest';
import { interpolate, Translator } from './translator';

const texts = {
  en: {
    nav: { signIn: 'Sign in', hello: 'Hello, {{name}}' },
    cart: { items_one: '{{count}} item', items_other: '{{count}} items', only: 'Only in English' },
    order: { paid: 'Paid {{amount}} on {{when.date}}' },
    errors: { 'limit.too_short': 'Raise the limit', limit: { other: 'Another' } },
  },
  de: {
    nav: { signIn: 'Anmelden', hello: 'Hallo, {{name}}' },
    cart: { items_one: '{{count}} Artikel', items_other: '{{count}} Artikel (viele)' },
  },
};

describe('Translator', () => {
  it('looks texts up by their dotted keys and fills their values', () => {
    const tr = new Translator('en', texts);
    expect(tr.t('nav.signIn')).toBe('Sign in');
    expect(tr.t('nav.hello', { name: 'Ann' })).toBe('Hello, Ann');
    expect(tr.t('order.paid', { amount: '€2.99', when: { date: '1 May' } })).toBe('Paid €2.99 on 1 May');
  });

  it('finds keys that hold dots themselves', () => {
    const tr = new Translator('en', texts);
    expect(tr.t('errors.limit.too_short')).toBe('Raise the limit');
    expect(tr.t('errors.limit.other')).toBe('Another');
    expect(tr.t('errors.limit.none')).toBe('errors.limit.none');
  });

  it('picks the plural form by the language’s rules', () => {
    const tr = new Translator('en', texts);
    expect(tr.t('cart.items', { count: 1 })).toBe('1 item');
    expect(tr.t('cart.items', { count: 0 })).toBe('0 items');
    expect(tr.t('cart.items', { count: 2 })).toBe('2 items');
    tr.setLanguage('de');
    expect(tr.t('cart.items', { count: 1 })).toBe('1 Artikel');
    expect(tr.t('cart.items', { count: 5 })).toBe('5 Artikel (viele)');
  });

  it('falls back to English, then to the default value, then to the key', () => {
    const tr = new Translator('de', texts);
    expect(tr.t('nav.signIn')).toBe('Anmelden');
    expect(tr.t('cart.only')).toBe('Only in English');
    expect(tr.t('cart.none', { defaultValue: 'nothing' })).toBe('nothing');
    expect(tr.t('cart.none')).toBe('cart.none');
    // A key that names a group of texts is no text.
    expect(tr.t('nav')).toBe('nav');
    expect(tr.exists('nav.signIn')).toBe(true);
    expect(tr.exists('nav')).toBe(false);
  });

  it('takes the first of several keys that has a text', () => {
    const tr = new Translator('en', texts);
    expect(tr.t(['cart.missing', 'nav.hello', 'nav.signIn'], { name: 'Bo' })).toBe('Hello, Bo');
    expect(tr.t(['a.b', 'c.d'])).toBe('c.d');
  });

  it('answers a lookup fixed to one language, whatever the language in use becomes', () => {
    const tr = new Translator('en', texts);
    const german = tr.fixedT('de');
    expect(german('nav.signIn')).toBe('Anmelden');
    expect(german('cart.only')).toBe('Only in English');
    tr.setLanguage('de');
    expect(tr.fixedT('en')('nav.signIn')).toBe('Sign in');
  });

  it('merges texts added later into those a language has', () => {
    const tr = new Translator('en', texts);
    expect(tr.hasTexts('fr')).toBe(false);
    tr.addTexts('en', { nav: { signOut: 'Sign out' } });
    expect(tr.t('nav.signOut')).toBe('Sign out');
    expect(tr.t('nav.signIn')).toBe('Sign in');
  });

  it('tells its listeners of a change of language, once per change', () => {
    const tr = new Translator('en', texts);
    const heard = vi.fn();
    const stop = tr.onLanguageChange(heard);
    tr.setLanguage('de');
    tr.setLanguage('de');
    expect(heard).toHaveBeenCalledTimes(1);
    expect(heard).toHaveBeenCalledWith('de');
    stop();
    tr.setLanguage('en');
    expect(heard).toHaveBeenCalledTimes(1);
    expect(tr.language).toBe('en');
  });
});

describe('interpolate', () => {
  it('leaves a placeholder without a value as written, and writes 0 and false', () => {
    expect(interpolate('{{a}} and {{ b }}', { a: 0 })).toBe('0 and {{ b }}');
    expect(interpolate('{{a}}', { a: false })).toBe('false');
    expect(interpolate('plain', undefined)).toBe('plain');
  });
});
