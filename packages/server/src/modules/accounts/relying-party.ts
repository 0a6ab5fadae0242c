import type { Config } from '../../config.js';

/** Who the passkeys are for: the relying party's id (a host name) and the page origins allowed to use them. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/**
 * The relying party from `PUBLIC_URL`: its host name is the id, its origin the first allowed one.
 * Other origins of `CORS_ORIGINS` are allowed too when their host is the id or a sub-domain of it
 * (a browser only lets such pages use the id's passkeys anyway). Read at each call: tests change
 * `publicUrl` once their server listens.
 */
export function relyingParty(config: Pick<Config, 'publicUrl' | 'corsOrigins'>): RelyingParty {
  const url = new URL(config.publicUrl);
  const id = url.hostname;
  const origins = [url.origin];
  for (const origin of config.corsOrigins) {
    let other: URL;
    try {
      other = new URL(origin);
    } catch {
      continue;
    }
    const host = other.hostname;
    if ((host === id || host.endsWith(`.${id}`)) && !origins.includes(other.origin)) origins.push(other.origin);
  }
  return { id, name: 'Till', origins };
}
