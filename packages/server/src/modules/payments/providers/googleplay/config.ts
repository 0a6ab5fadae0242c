import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, pair, providerConfig } from '../../../../variables.js';

/** A Google service account's key, as the Cloud console downloads it (only the fields used). */
export interface GoogleServiceAccount {
  clientEmail: string;
  privateKey: string;
}

/** Google Play (the in-app store platform `android-playstore`): on when the package name is set. */
export interface GooglePlayConfig {
  packageName: string;
  /** The service account the server calls the Play Developer API as. */
  serviceAccount: GoogleServiceAccount;
  /**
   * Pub/Sub push authentication by Google-signed OIDC token: the audience the push subscription puts
   * in its tokens and the service account it signs them as.
   */
  pushOidc: { audience: string; serviceAccount: string } | undefined;
  /** Pub/Sub push authentication by a shared secret in the push endpoint's `token` parameter. */
  pushSecret: string | undefined;
  /** Base addresses of the Play Developer API, Google's token endpoint and its certificates; Google's own when unset. */
  apiUrl: string | undefined;
  tokenUrl: string | undefined;
  certsUrl: string | undefined;
}

/**
 * Google Play is on when its package name is set; then it needs the service account, and one way of
 * authenticating Pub/Sub's pushes (an OIDC token, or a shared secret), since a push endpoint that
 * refuses every push would lose every notification without a word.
 */
export const googlePlayConfig = providerConfig({
  variables: {
    GOOGLE_PLAY_PACKAGE_NAME: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, 'must be an application id such as com.example.till')
      .optional(),
    GOOGLE_SERVICE_ACCOUNT: z.string().optional(),
    GOOGLE_PUSH_AUDIENCE: z.string().min(1).optional(),
    GOOGLE_PUSH_SERVICE_ACCOUNT: z.email('must be the e-mail address of a service account').optional(),
    GOOGLE_PUSH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    GOOGLE_PLAY_API_URL: z.url().optional(),
    GOOGLE_TOKEN_URL: z.url().optional(),
    GOOGLE_CERTS_URL: z.url().optional(),
  },
  read(e): GooglePlayConfig | undefined {
    const oidc = pair(
      ['GOOGLE_PUSH_AUDIENCE', 'GOOGLE_PUSH_SERVICE_ACCOUNT'],
      [e.GOOGLE_PUSH_AUDIENCE, e.GOOGLE_PUSH_SERVICE_ACCOUNT],
    );
    if (!e.GOOGLE_PLAY_PACKAGE_NAME) {
      const stray = (
        ['GOOGLE_SERVICE_ACCOUNT', 'GOOGLE_PUSH_AUDIENCE', 'GOOGLE_PUSH_SERVICE_ACCOUNT', 'GOOGLE_PUSH_SECRET'] as const
      ).find((name) => e[name] !== undefined);
      if (stray) throw new ConfigError('GOOGLE_PLAY_PACKAGE_NAME', `is required when ${stray} is set`);
      return undefined;
    }
    if (!e.GOOGLE_SERVICE_ACCOUNT)
      throw new ConfigError('GOOGLE_SERVICE_ACCOUNT', 'is required when GOOGLE_PLAY_PACKAGE_NAME is set');
    if (!oidc && !e.GOOGLE_PUSH_SECRET)
      throw new ConfigError(
        'GOOGLE_PUSH_AUDIENCE',
        'is required (with GOOGLE_PUSH_SERVICE_ACCOUNT) when GOOGLE_PLAY_PACKAGE_NAME is set, unless GOOGLE_PUSH_SECRET is',
      );
    return {
      packageName: e.GOOGLE_PLAY_PACKAGE_NAME,
      serviceAccount: readServiceAccount(e.GOOGLE_SERVICE_ACCOUNT),
      pushOidc: oidc && { audience: oidc[0], serviceAccount: oidc[1].toLowerCase() },
      pushSecret: e.GOOGLE_PUSH_SECRET,
      apiUrl: e.GOOGLE_PLAY_API_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      certsUrl: e.GOOGLE_CERTS_URL,
    };
  },
});

const serviceAccountKey = z.object({
  client_email: z.email(),
  private_key: z.string().includes('PRIVATE KEY'),
});

/** The key JSON itself, or the path of its file: a path keeps the key out of the process's environment listing. */
function readServiceAccount(value: string): GoogleServiceAccount {
  const problem = 'must be a service account key (its JSON, or the path of its file) with client_email and private_key';
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(text, 'utf8');
    } catch {
      throw new ConfigError('GOOGLE_SERVICE_ACCOUNT', `cannot read the file ${value}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError('GOOGLE_SERVICE_ACCOUNT', problem);
  }
  const key = serviceAccountKey.safeParse(json);
  if (!key.success) throw new ConfigError('GOOGLE_SERVICE_ACCOUNT', problem);
  return { clientEmail: key.data.client_email, privateKey: key.data.private_key };
}
