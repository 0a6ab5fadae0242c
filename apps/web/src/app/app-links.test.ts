import { describe, expect, it } from 'vitest';
import { linkedRoute, schemeRoute } from './app-links';

describe('linkedRoute', () => {
  const hosts = ['https://till.example'];

  it("routes the server's confirmation, reset and order links to the app's pages", () => {
    expect(linkedRoute('https://till.example/confirm/t0k', hosts)).toBe('/confirm/t0k');
    expect(linkedRoute('https://till.example/reset/t0k', hosts)).toBe('/reset/t0k');
    expect(linkedRoute('https://till.example/orders/A-1?paid=1', hosts)).toBe('/orders/A-1?paid=1');
  });

  it('ignores other hosts, other pages and what is no address', () => {
    expect(linkedRoute('https://till.example.evil/orders/A-1', hosts)).toBeNull();
    expect(linkedRoute('http://till.example/orders/A-1', hosts)).toBeNull();
    expect(linkedRoute('https://till.example/admin', hosts)).toBeNull();
    expect(linkedRoute('not a url', hosts)).toBeNull();
    expect(linkedRoute('https://till.example/orders/A-1', [])).toBeNull();
  });
});

describe('schemeRoute', () => {
  it('routes a provider’s return through the app’s scheme to the finish page or the profile, fragment kept', () => {
    expect(schemeRoute('app.till.mobile:/social/finish#ticket=abc', 'app.till.mobile')).toBe(
      '/social/finish#ticket=abc',
    );
    expect(schemeRoute('app.till.mobile:/profile#connectTicket=abc', 'app.till.mobile')).toBe(
      '/profile#connectTicket=abc',
    );
  });

  it('ignores another scheme, another page and what is not an address', () => {
    expect(schemeRoute('com.other.app:/social/finish#ticket=abc', 'app.till.mobile')).toBeNull();
    expect(schemeRoute('https://till.example/social/finish#ticket=abc', 'app.till.mobile')).toBeNull();
    expect(schemeRoute('app.till.mobile:/admin', 'app.till.mobile')).toBeNull();
    expect(schemeRoute('not a url', 'app.till.mobile')).toBeNull();
  });
});
