import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD } from '@till/protocol';
import { hashToken } from '../../security/tokens.js';

/**
 * Steps either side of now that a code may come from: one, so that a code typed as it turned over
 * (or read from a phone whose clock is a little off) still counts, as RFC 6238 section 5.2 advises.
 */
export const TOTP_WINDOW = 1;

function totpOf(secretBase32: string, label = 'Till'): TOTP {
  return new TOTP({
    issuer: 'Till',
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh secret of 160 bits (RFC 4226's recommended length), base32, and its `otpauth://` URI. */
export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, label).toString() };
}

/** The time step of a moment. */
export function stepOf(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/**
 * The time step a code belongs to, when it is the secret's code for a step within the window around
 * `now`; else null. The library compares in constant time.
 */
export function matchStep(secretBase32: string, code: string, now: number): number | null {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : stepOf(now) + delta;
}

// Recovery codes: 16 characters from an alphabet without look-alikes (no 0/o, 1/l/i), 80 bits each,
// so a fast hash is enough to store them (a copy of the table cannot be searched back to codes).
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten fresh recovery codes as shown (`abcd-efgh-jkmn-pqrs`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    // Rejection sampling keeps every character equally likely (256 is not a multiple of 31).
    while (code.length < 16) {
      for (const byte of randomBytes(24)) {
        if (byte < 248 && code.length < 16) code += ALPHABET[byte % 31];
      }
    }
    return code.match(/.{4}/g)?.join('-') ?? code;
  });
}

/** The stored form of a recovery code, from the normalised code (lower case, no dashes). */
export function recoveryCodeHash(userId: string, normalised: string): string {
  return hashToken(`${userId}:${normalised}`);
}

/** AES-256-GCM under a key derived from the configured key material. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string) {
    this.key = Buffer.from(hash('sha256', `till totp secrets\u0000${material}`, 'buffer'));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  /** The plain text, or null when the box was sealed under another key or altered. */
  open(sealed: string): string | null {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
