import type { Config } from '../../config.js';
import { sign, verifySignature } from '../../security/tokens.js';

/** How long a signed link works. */
export const LINK_TTL_MS = 60 * 60 * 1000;
// Expiries are rounded up to this step so that a link stays the same for a while and browsers can
// cache an `<img>` across list refreshes.
const LINK_STEP_MS = 5 * 60 * 1000;

export const DOWNLOAD_ROUTE = '/api/files/download/:id';
export const AVATAR_ROUTE = '/api/files/avatar/:id';

export type LinkCheck = 'ok' | 'expired' | 'invalid';

/**
 * Builds and checks the links that reach file contents without a session. Links in answers are
 * relative to the server (`/api/files/...`): the app may be opened at any host the server answers
 * to (`localhost`, `127.0.0.1`, a LAN name), and an address naming `PUBLIC_URL`'s host would be
 * another origin there. Clients resolve them against the host they called; mailed links, which
 * leave the app, keep `PUBLIC_URL`.
 */
export class FileLinks {
  constructor(
    private readonly config: Config,
    private readonly now: () => number,
  ) {}

  /** A lasting link for a public file, or a signed one that expires for a private one. */
  fileUrl(file: { id: string; public: number }): string {
    const base = `/api/files/download/${file.id}`;
    if (file.public) return base;
    const expires = Math.ceil((this.now() + LINK_TTL_MS) / LINK_STEP_MS) * (LINK_STEP_MS / 1000);
    return `${base}?expires=${expires}&sig=${this.signature(file.id, expires)}`;
  }

  /** Checks a signed link's query; the signature is compared in constant time. */
  check(id: string, expires: unknown, sig: unknown): LinkCheck {
    if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
    if (!verifySignature(this.config.signingSecret, this.payload(id, Number(expires)), sig)) return 'invalid';
    return Number(expires) * 1000 > this.now() ? 'ok' : 'expired';
  }

  /** The lasting link of an avatar, from its storage key (`avatars/ID`). */
  avatarUrl(key: string): string {
    return `/api/files/avatar/${key.slice('avatars/'.length)}`;
  }

  private signature(id: string, expires: number): string {
    return sign(this.config.signingSecret, this.payload(id, expires));
  }

  // The purpose prefix keeps a file signature from ever being valid as any other signed value.
  private payload(id: string, expires: number): string {
    return `file-download:${id}:${expires}`;
  }
}
