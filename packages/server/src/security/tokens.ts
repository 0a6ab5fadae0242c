import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A fresh opaque token of 256 random bits (base64url). Comes from the operating system's CSPRNG:
 * tokens are bearer credentials, so they must not be guessable.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The SHA-256 of a token, as stored. A leaked table of hashes does not give working tokens; a fast
 * hash is enough because the tokens themselves carry 256 bits of entropy.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    // Still spend a comparison so that the length check is not a shortcut an attacker can time.
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/** HMAC-SHA256 of `data` under `secret`, hex. */
export function sign(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

/** Checks an HMAC-SHA256 signature in constant time. */
export function verifySignature(secret: string, data: string, signature: string): boolean {
  return safeEqual(sign(secret, data), signature);
}
