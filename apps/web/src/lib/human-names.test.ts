import { describe, expect, it } from 'vitest';
import { testI18n } from '@/test/render';
import { ApiError, messageKeys } from './api-error';
import { formatAgo } from './format';
import { orderRef } from './order-ref';
import { parsePeriod, periodText } from './period';
import { serverUrl } from './server-url';
import { sessionName } from './user-agent';

const i18n = testI18n();
const t = i18n.t.bind(i18n);

describe('periods in words', () => {
  it.each([
    ['P1M', 'monthly'],
    ['P3M', 'every 3 months'],
    ['P12M', 'yearly'],
    ['P1Y', 'yearly'],
    ['P2Y', 'every 2 years'],
    ['P7D', 'weekly'],
    ['P30D', 'every 30 days'],
    ['P1W', 'weekly'],
  ])('reads %s as "%s"', (iso, words) => {
    expect(periodText(t, iso)).toBe(words);
  });

  it('shows nothing internal for what it cannot read', () => {
    for (const odd of ['P1Y2M', 'PT1H', '', null, 'P0M', 'monthly']) expect(periodText(t, odd)).toBeNull();
    expect(parsePeriod('P6M')).toEqual({ count: 6, unit: 'months' });
  });
});

describe('session names', () => {
  it('names the browser and the system, never the whole user-agent string', () => {
    const chrome =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    expect(sessionName(t, chrome)).toBe('Chrome 131 on Android 14');
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
    expect(sessionName(t, firefox)).toBe('Firefox 133 on Windows 10');
    expect(sessionName(t, null)).toBe(t('profile.unknownDevice'));
    expect(sessionName(t, 'curl-ish/1')).toBe(t('profile.unknownDevice'));
  });
});

describe('failure messages', () => {
  it('say what to do for the reason the server gave, falling back to the code', () => {
    const msg = (body: ConstructorParameters<typeof ApiError>[0]) => t(messageKeys(new ApiError(body)));
    expect(msg({ code: 907, parameter: 'file', reason: 'too_large' })).toBe(
      'The file is too large. Choose a smaller file, or compress it first.',
    );
    expect(msg({ code: 907, parameter: 'file', reason: 'type' })).toMatch(/^This type of file cannot be uploaded/);
    expect(msg({ code: 907, parameter: 'products', reason: 'owned' })).toMatch(/^You already own something/);
    expect(msg({ code: 908, reason: 'min_total' })).toBe("The total is below this coupon's minimum.");
    // A reason from a server newer than the app, which the app's types cannot know yet.
    expect(msg({ code: 907, parameter: 'name', reason: 'something_new' as 'invalid' })).toBe(t('errors.907'));
    expect(t(messageKeys(new Error('boom')))).toBe(t('errors.905'));
  });
});

describe('order references and server addresses', () => {
  it('gives an order a short reference, and resolves relative addresses against the API host', () => {
    expect(orderRef('mhx3k2a1000000a1b2c3d4e5f6a7b8')).toBe('F6A7B8');
    expect(serverUrl('/api/files/avatar/x', '')).toBe('/api/files/avatar/x');
    expect(serverUrl('/api/files/avatar/x', 'https://till.example/')).toBe('https://till.example/api/files/avatar/x');
    expect(serverUrl('https://cdn.example/a.png', 'https://till.example')).toBe('https://cdn.example/a.png');
    expect(serverUrl(null)).toBeUndefined();
  });
});

describe('how long ago, in words', () => {
  const now = Date.parse('2026-11-27T18:00:00Z');
  const ago = (ms: number, lang = 'en') => formatAgo(new Date(now - ms).toISOString(), lang, now);
  it.each([
    [20_000, 'this minute'],
    [5 * 60_000, '5 minutes ago'],
    [2 * 3_600_000 + 59 * 60_000, '2 hours ago'],
    [26 * 3_600_000, 'yesterday'],
    [3 * 86_400_000, '3 days ago'],
    [15 * 86_400_000, '2 weeks ago'],
    [400 * 86_400_000, 'last year'],
    // A clock ahead of this one does not make a session used in the future.
    [-60_000, 'this minute'],
  ])('reads %i ms back as "%s"', (ms, words) => {
    expect(ago(ms)).toBe(words);
  });

  it('speaks the reader’s language', () => {
    expect(ago(2 * 3_600_000, 'de')).toBe('vor 2 Stunden');
  });
});
