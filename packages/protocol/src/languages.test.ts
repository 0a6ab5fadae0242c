import { describe, expect, it } from 'vitest';
import { pickLanguage } from './languages.js';

describe('pickLanguage', () => {
  it('takes the first language the shop speaks, by weight, from tags or Accept-Language headers', () => {
    expect(pickLanguage('de')).toBe('de');
    expect(pickLanguage('de-AT')).toBe('de');
    expect(pickLanguage('DE-ch, en;q=0.5')).toBe('de');
    expect(pickLanguage('fr-FR, fr;q=0.9, en;q=0.8, de;q=0.7')).toBe('en');
    expect(pickLanguage('fr, de;q=0.5')).toBe('de');
    expect(pickLanguage('en;q=0.1, de;q=0.2')).toBe('de');
    expect(pickLanguage('de;q=0, en')).toBe('en');
  });

  it('falls back through the candidates, then to the default language', () => {
    expect(pickLanguage(undefined, 'de')).toBe('de');
    expect(pickLanguage('fr', 'de')).toBe('de');
    expect(pickLanguage('xx', null, '')).toBe('en');
    expect(pickLanguage()).toBe('en');
    expect(pickLanguage('*')).toBe('en');
  });
});
