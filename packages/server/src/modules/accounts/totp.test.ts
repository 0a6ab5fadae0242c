import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchStep, newRecoveryCodes, newTotpSecret, SecretBox, stepOf } from './totp.js';

describe('TOTP helpers', () => {
  it('seals a secret so that only the same key opens it, and an altered box opens to nothing', () => {
    const box = new SecretBox('key material of at least thirty-two characters');
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(new SecretBox('another key material, also long enough').open(sealed)).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(box.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'))).toBeNull();
    expect(box.open('not a box')).toBeNull();
  });

  it('matches a code to its time step within one step either side', () => {
    const { secret, uri } = newTotpSecret('ada@example.test');
    expect(uri).toContain(`secret=${secret}`);
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const now = 1_800_000_000_000;
    expect(matchStep(secret, totp.generate({ timestamp: now }), now)).toBe(stepOf(now));
    expect(matchStep(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(stepOf(now) - 1);
    expect(matchStep(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(stepOf(now) + 1);
    // Two steps away: refused (a fixed secret, so that no code of the window happens to be the same).
    const fixed = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const twoBack = new TOTP({ secret: Secret.fromBase32(fixed) }).generate({ timestamp: now - 60_000 });
    expect(matchStep(fixed, twoBack, now)).toBeNull();
  });

  it('makes ten different recovery codes of 16 characters without look-alikes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
  });
});
