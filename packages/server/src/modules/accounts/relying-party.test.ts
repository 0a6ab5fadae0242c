import { describe, expect, it } from 'vitest';
import { relyingParty } from './relying-party.js';

describe('the passkeys relying party', () => {
  it('is the host of PUBLIC_URL, allowing its origin and CORS origins on that host or under it only', () => {
    const rp = relyingParty({
      publicUrl: 'https://shop.example.com',
      corsOrigins: [
        'https://app.shop.example.com/',
        'https://shop.example.com:8443',
        'https://example.com',
        'https://evilshop.example.com',
        'capacitor://localhost',
        'not a url',
      ],
    });
    expect(rp.id).toBe('shop.example.com');
    expect(rp.origins).toEqual([
      'https://shop.example.com',
      'https://app.shop.example.com',
      'https://shop.example.com:8443',
    ]);
  });

  it('works on http://localhost for development', () => {
    expect(relyingParty({ publicUrl: 'http://localhost:3000', corsOrigins: [] })).toEqual({
      id: 'localhost',
      name: 'Till',
      origins: ['http://localhost:3000'],
    });
  });
});
