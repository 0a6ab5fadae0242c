import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, csv, providerConfig } from '../../../../variables.js';

/** The App Store route (in-app purchases on iOS): on when its required variables are set. */
export interface AppStoreConfig {
  bundleId: string;
  /** The app's numeric Apple id; Apple's notifications carry it in production (not in the sandbox). */
  appAppleId: number | undefined;
  environment: 'Production' | 'Sandbox';
  /** The App Store Server API key (App Store Connect, Users and Access, Integrations, In-App Purchase). */
  issuerId: string;
  keyId: string;
  /** The key's `.p8` contents (PEM). */
  privateKey: string;
  /** Apple's root certificates (DER or PEM) that signed data must chain to. */
  rootCertificates: Buffer[];
  /** Base address of the App Store Server API; Apple's own for the environment when unset. */
  apiUrl: string | undefined;
  /**
   * Whether a `Production` server also takes Sandbox-signed data (App Review buys with sandbox
   * accounts against the production build): verified against the sandbox environment, looked up at
   * the sandbox API, and marked as sandbox orders. Off refuses them (`environment`).
   */
  acceptSandbox: boolean;
  /** Base address of the sandbox App Store Server API; Apple's own when unset. */
  sandboxApiUrl: string | undefined;
  /** Whether certificates are checked for revocation (OCSP, at Apple) and against the current date. */
  onlineChecks: boolean;
}

/**
 * The App Store route's variables: all of the required ones, or none. The key and the certificates
 * are read here, so that a wrong path or a file that is not a key stops the start.
 */
export const appStoreConfig = providerConfig({
  variables: {
    APPLE_BUNDLE_ID: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a bundle id such as com.example.till')
      .optional(),
    APPLE_APP_ID: z.string().regex(/^\d+$/, "must be the app's numeric Apple id").optional(),
    APPLE_ENVIRONMENT: z.enum(['Production', 'Sandbox']).default('Production'),
    // Apple's issuer ids are UUID-shaped without a UUID's version and variant bits, so the shape is all that is checked.
    APPLE_ISSUER_ID: z
      .string()
      .regex(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
        'must be the issuer id from App Store Connect',
      )
      .optional(),
    APPLE_KEY_ID: z
      .string()
      .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character key id from App Store Connect')
      .optional(),
    APPLE_PRIVATE_KEY: z.string().optional(),
    APPLE_ROOT_CERTS: csv,
    APPLE_API_URL: z.url().optional(),
    APPLE_SANDBOX_API_URL: z.url().optional(),
    APPLE_ACCEPT_SANDBOX: z.enum(['true', 'false']).default('true'),
    APPLE_ONLINE_CHECKS: z.enum(['true', 'false']).default('true'),
  },
  read(e): AppStoreConfig | undefined {
    const production = e.APPLE_ENVIRONMENT === 'Production';
    const required: [string, unknown][] = [
      ['APPLE_BUNDLE_ID', e.APPLE_BUNDLE_ID],
      // Apple's production notifications are checked against the app's numeric id; sandbox ones carry none.
      ['APPLE_APP_ID', production ? e.APPLE_APP_ID : 'not needed in the sandbox'],
      ['APPLE_ISSUER_ID', e.APPLE_ISSUER_ID],
      ['APPLE_KEY_ID', e.APPLE_KEY_ID],
      ['APPLE_PRIVATE_KEY', e.APPLE_PRIVATE_KEY],
      ['APPLE_ROOT_CERTS', e.APPLE_ROOT_CERTS.length ? e.APPLE_ROOT_CERTS : undefined],
    ];
    const named = [e.APPLE_BUNDLE_ID, e.APPLE_APP_ID, e.APPLE_ISSUER_ID, e.APPLE_KEY_ID, e.APPLE_PRIVATE_KEY];
    if (named.every((v) => v === undefined) && !e.APPLE_ROOT_CERTS.length) return undefined;
    const missing = required.find(([, v]) => v === undefined);
    if (missing) throw new ConfigError(missing[0], 'is required when the App Store route is configured (APPLE_...)');
    const privateKey = readKey(e.APPLE_PRIVATE_KEY ?? '');
    const rootCertificates = e.APPLE_ROOT_CERTS.map((path) => {
      try {
        const cert = readFileSync(path);
        if (new X509Certificate(cert).ca) return cert;
      } catch {
        // Named below.
      }
      throw new ConfigError('APPLE_ROOT_CERTS', `${path} is not a readable CA certificate (DER or PEM)`);
    });
    return {
      bundleId: e.APPLE_BUNDLE_ID ?? '',
      appAppleId: e.APPLE_APP_ID === undefined ? undefined : Number(e.APPLE_APP_ID),
      environment: e.APPLE_ENVIRONMENT,
      issuerId: e.APPLE_ISSUER_ID ?? '',
      keyId: e.APPLE_KEY_ID ?? '',
      privateKey,
      rootCertificates,
      apiUrl: e.APPLE_API_URL?.replace(/\/+$/, ''),
      acceptSandbox: e.APPLE_ACCEPT_SANDBOX === 'true',
      sandboxApiUrl: e.APPLE_SANDBOX_API_URL?.replace(/\/+$/, ''),
      onlineChecks: e.APPLE_ONLINE_CHECKS === 'true',
    };
  },
});

/** The `.p8` key itself (its PEM text, newlines written as `\n` allowed), or the path of the file. */
function readKey(value: string): string {
  const pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readOrUndefined(value);
  if (!pem?.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new ConfigError('APPLE_PRIVATE_KEY', 'must be the .p8 key (PEM) or the path of the .p8 file');
  }
  return pem;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
