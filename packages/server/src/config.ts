import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Cron } from 'croner';
import { z } from 'zod';
import { APP_WEB_PAYMENTS, type AppWebPayments } from '@till/protocol';

/** Thrown when the environment holds a bad value; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

function validCron(expression: string): boolean {
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/till.db')
    .refine((v) => /^(sqlite:|postgres(ql)?:\/\/)/.test(v), 'must start with sqlite: or postgres://'),
  SQLITE_GROUP_COMMIT: z.enum(['on', 'off']).default('on'),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().default('Till <no-reply@till.local>'),
  SESSION_TTL: positiveInt(604_800),
  // Last use is recorded at most once a minute, so an idle lifetime under that could not be kept.
  SESSION_IDLE_TTL: z.coerce.number().int().min(60, 'must be at least 60 seconds').default(86_400),
  ADMIN_EMAILS: csv.transform((list) => list.map((e) => e.toLowerCase())),
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must be a redis:// URL'),
  CORS_ORIGINS: csv,
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STORAGE_URL: z
    .string()
    .default('file:./data/uploads')
    .refine((v) => /^(file:.|s3:\/\/.)/.test(v), 'must be file:PATH or s3://BUCKET'),
  BACKUP_URL: z
    .string()
    .default('file:./data/backups')
    .refine((v) => /^(file:.|s3:\/\/.)/.test(v), 'must be file:PATH or s3://BUCKET'),
  BACKUP_SCHEDULE: z
    .string()
    .optional()
    .refine((v) => v === undefined || validCron(v), 'must be a cron expression such as "0 3 * * *"'),
  BACKUP_KEEP: positiveInt(7),
  UPLOAD_MAX_FILE_BYTES: positiveInt(20 * 1024 * 1024),
  UPLOAD_MAX_FILES: positiveInt(10),
  UPLOAD_QUOTA_BYTES: positiveInt(200 * 1024 * 1024),
  SIGNING_SECRET: z.string().min(32).optional(),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d+|[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*)$/,
      'must be false, a number of proxies, or proxy addresses',
    )
    .optional(),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  RATE_LOGIN_PER_IP: positiveInt(30),
  RATE_LOGIN_FAILURES_PER_ACCOUNT_IP: positiveInt(10),
  RATE_LOGIN_FAILURES_PER_ACCOUNT: positiveInt(100),
  RATE_REGISTER_PER_IP: positiveInt(20),
  RATE_MAIL_PER_IP: positiveInt(20),
  RATE_MAIL_PER_ADDRESS: positiveInt(5),
  RATE_RESET_PER_IP: positiveInt(20),
  RATE_RESET_PER_TOKEN: positiveInt(5),
  RATE_CONFIRM_PER_IP: positiveInt(30),
  RATE_CONFIRM_PER_TOKEN: positiveInt(5),
  SECURITY_LOG_RETENTION_DAYS: positiveInt(365),
  TOTP_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret key (sk_test_..., sk_live_... or rk_...)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_...)')
    .optional(),
  STRIPE_API_URL: z.url().optional(),
  PAYMENTWALL_PROJECT_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]+$/, 'must be the project key')
    .optional(),
  PAYMENTWALL_SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]+$/, 'must be the secret key')
    .optional(),
  PAYMENTWALL_WIDGET: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, 'must be a widget code such as p1_1')
    .default('p1_1'),
  PAYMENTWALL_PINGBACK_IPS: z.string().optional(),
  PAYMENTWALL_API_URL: z.url().optional(),
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
  // Whether the phone apps offer the web payment routes; the stores' rules ask for `hidden`.
  APP_WEB_PAYMENTS: z.enum(APP_WEB_PAYMENTS).default('hidden'),
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
  ANDROID_PACKAGE_NAME: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, 'must be an application id such as com.example.till')
    .optional(),
  ANDROID_CERT_FINGERPRINTS: csv.refine(
    (list) => list.every((f) => /^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/.test(f)),
    'must be SHA-256 certificate fingerprints (32 hex pairs joined by colons, AB:CD:...), comma-separated',
  ),
  IOS_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character team id from the Apple Developer account')
    .optional(),
  IOS_BUNDLE_ID: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a bundle id such as com.example.till')
    .optional(),
});

/** The card route (Stripe Checkout): on when both keys are set. */
export interface CardConfig {
  secretKey: string;
  webhookSecret: string;
  /** Base address of a Stripe-compatible API; Stripe's own when unset. */
  apiUrl: string | undefined;
}

/** The payment-wall route (Paymentwall): on when both keys are set. */
export interface PaywallConfig {
  projectKey: string;
  secretKey: string;
  widget: string;
  /** Addresses and ranges pingbacks may come from (`*`: any); Paymentwall's published ones when empty. */
  pingbackIps: string[];
  /** Base address of the widget; Paymentwall's own when unset. */
  apiUrl: string | undefined;
}

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
 * The files that let the phone apps open the server's links (confirm, reset, an order's return
 * page): Android App Links' `assetlinks.json` and iOS Universal Links' `apple-app-site-association`.
 * Each is served only when its app is named.
 */
export interface AppLinksConfig {
  /** The Android app's package name and the SHA-256 fingerprints of the certificates that sign it. */
  android: { packageName: string; fingerprints: string[] } | undefined;
  /** The iOS app's `TEAMID.bundleid`. */
  ios: { appId: string } | undefined;
}

/** Per-route request budgets; tests raise them, production keeps the defaults. */
export interface RateLimits {
  /** Login attempts per IP per minute. */
  loginPerIp: number;
  /**
   * Failed logins per account from one client address, or from one known device, per 15 minutes:
   * what stops a guesser.
   */
  loginFailuresPerAccountAndIp: number;
  /**
   * Failed logins per account from all addresses per hour: higher, so that one guesser cannot lock
   * the owner out, yet guesses spread over many addresses are still bounded. Known devices do not
   * spend it.
   */
  loginFailuresPerAccount: number;
  /** Registrations per IP per hour. */
  registerPerIp: number;
  /** Mails (reset links, resends) per IP per hour. */
  mailPerIp: number;
  /** Mails per target address per hour. */
  mailPerAddress: number;
  /** Password resets (with a mailed token) per client address per hour. */
  resetPerIp: number;
  /** Tries of one reset token per hour: bounds the passwords one link can make the server hash. */
  resetPerToken: number;
  /** Confirmation links followed per client address per hour. */
  confirmPerIp: number;
  /** Tries of one confirmation token per hour. */
  confirmPerToken: number;
}

export const defaultRateLimits: RateLimits = {
  loginPerIp: 30,
  loginFailuresPerAccountAndIp: 10,
  loginFailuresPerAccount: 100,
  registerPerIp: 20,
  mailPerIp: 20,
  mailPerAddress: 5,
  resetPerIp: 20,
  resetPerToken: 5,
  confirmPerIp: 30,
  confirmPerToken: 5,
};

/** The server's settings, parsed once at start. */
export interface Config {
  env: 'development' | 'test' | 'production';
  production: boolean;
  port: number;
  host: string;
  databaseUrl: string;
  /**
   * Whether SQLite transactions commit in groups (`SQLITE_GROUP_COMMIT`, on unless `off`); off, each
   * commits on its own. docs/decisions/001-group-commit-one-process-per-sqlite-file.md.
   */
  sqliteGroupCommit: boolean;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  sessionTtl: number;
  /** Seconds a session may go unused before it ends, besides its absolute lifetime. */
  sessionIdleTtl: number;
  adminEmails: string[];
  redisUrl: string | undefined;
  corsOrigins: string[];
  logLevel: string;
  /**
   * How long a shutdown waits for the requests in flight before cutting them: orchestrators send
   * SIGKILL after their own grace (30 s on Kubernetes), so this stays under it.
   */
  shutdownGraceMs: number;
  storageUrl: string;
  /**
   * Backups of a SQLite server (docs/backups.md): where they go (`file:PATH` or `s3://BUCKET[/PREFIX]`,
   * as `STORAGE_URL`), when they are taken (a cron expression, in UTC; none when unset), and how many
   * of the latest are kept.
   */
  backup: { url: string; schedule: string | undefined; keep: number };
  upload: { maxFileBytes: number; maxFiles: number; quotaBytes: number };
  /** Secret for signed links and the built-in provider's notifications. */
  signingSecret: string;
  /** Folder of the built web app to serve, when present. */
  webDist: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` to believe: the client address decides rate limits and a
   * payment provider's allow list, so only the proxies in front of the server may set it.
   */
  trustProxy: boolean | number | string[];
  /** The bearer token a Prometheus scraper sends for `/metrics`; metrics are off without one. */
  metricsToken: string | undefined;
  rateLimits: RateLimits;
  /** Days a security-log entry is kept before the housekeeping job removes it. */
  securityLogRetentionDays: number;
  /**
   * Key material for the TOTP secrets at rest (AES-256-GCM); `SIGNING_SECRET` when unset. Setting it
   * lets the signing secret rotate without turning off every second factor.
   */
  totpKey: string;
  appLinks: AppLinksConfig;
  /**
   * The `SOCIAL_*` variables as given: the accounts module parses them (`modules/accounts/social-config.ts`),
   * since the platform knows no module; a bad one still stops the start, as the app is built.
   */
  socialEnv?: Record<string, string>;
  /** The payment routes that take real money; each is off unless its variables are set. */
  payments: {
    card: CardConfig | undefined;
    paywall: PaywallConfig | undefined;
    appstore?: AppStoreConfig | undefined;
    googleplay?: GooglePlayConfig | undefined;
    /**
     * Whether the phone apps offer the web routes besides their in-app store (`APP_WEB_PAYMENTS`);
     * absent counts as `hidden`.
     */
    appWebPayments?: AppWebPayments;
  };
}

/** Both variables of a pair, or neither: one alone is a route half set up, which stops the start. */
function pair(names: [string, string], values: [string | undefined, string | undefined]): [string, string] | undefined {
  const [a, b] = values;
  if (a && b) return [a, b];
  if (a) throw new ConfigError(names[1], `is required when ${names[0]} is set`);
  if (b) throw new ConfigError(names[0], `is required when ${names[1]} is set`);
  return undefined;
}

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

/**
 * Google Play is on when its package name is set; then it needs the service account, and one way of
 * authenticating Pub/Sub's pushes (an OIDC token, or a shared secret), since a push endpoint that
 * refuses every push would lose every notification without a word.
 */
function googlePlay(e: z.output<typeof envSchema>): GooglePlayConfig | undefined {
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
}

/**
 * The App Store route's variables: all of the required ones, or none. The key and the certificates
 * are read here, so that a wrong path or a file that is not a key stops the start.
 */
function appStore(e: z.infer<typeof envSchema>): AppStoreConfig | undefined {
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
}

/**
 * App Links and Universal Links: the Android file needs the package and its fingerprints, the iOS
 * one the team id and the bundle id. The package and the bundle id default to the in-app stores'.
 */
function appLinks(e: z.output<typeof envSchema>): AppLinksConfig {
  const packageName = e.ANDROID_PACKAGE_NAME ?? e.GOOGLE_PLAY_PACKAGE_NAME;
  const fingerprints = e.ANDROID_CERT_FINGERPRINTS.map((f) => f.toUpperCase());
  if (fingerprints.length && !packageName)
    throw new ConfigError('ANDROID_PACKAGE_NAME', 'is required when ANDROID_CERT_FINGERPRINTS is set');
  if (e.ANDROID_PACKAGE_NAME && !fingerprints.length)
    throw new ConfigError('ANDROID_CERT_FINGERPRINTS', 'is required when ANDROID_PACKAGE_NAME is set');
  const bundleId = e.IOS_BUNDLE_ID ?? e.APPLE_BUNDLE_ID;
  if (e.IOS_TEAM_ID && !bundleId) throw new ConfigError('IOS_BUNDLE_ID', 'is required when IOS_TEAM_ID is set');
  if (e.IOS_BUNDLE_ID && !e.IOS_TEAM_ID) throw new ConfigError('IOS_TEAM_ID', 'is required when IOS_BUNDLE_ID is set');
  return {
    android: packageName && fingerprints.length ? { packageName, fingerprints } : undefined,
    ios: e.IOS_TEAM_ID && bundleId ? { appId: `${e.IOS_TEAM_ID}.${bundleId}` } : undefined,
  };
}

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

/**
 * Parses the environment into a {@link Config}; a bad value throws a {@link ConfigError} naming the
 * variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, issue?.message ?? 'invalid value');
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.SMTP_URL) throw new ConfigError('SMTP_URL', 'is required in production');
  if (production && !e.SIGNING_SECRET) throw new ConfigError('SIGNING_SECRET', 'is required in production');
  if (production && !e.PUBLIC_URL) throw new ConfigError('PUBLIC_URL', 'is required in production');
  // Mailed reset and confirmation links carry tokens, and passkeys are bound to this origin: over
  // plain HTTP anyone on the way could read or replay them. Only a local address may do without TLS.
  if (production && e.PUBLIC_URL && !securePublicUrl(e.PUBLIC_URL)) {
    throw new ConfigError('PUBLIC_URL', 'must be an https:// address in production (http:// only for localhost)');
  }
  const stripe = pair(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], [e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET]);
  const paymentwall = pair(
    ['PAYMENTWALL_PROJECT_KEY', 'PAYMENTWALL_SECRET_KEY'],
    [e.PAYMENTWALL_PROJECT_KEY, e.PAYMENTWALL_SECRET_KEY],
  );
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    sqliteGroupCommit: e.SQLITE_GROUP_COMMIT === 'on',
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sessionTtl: e.SESSION_TTL,
    sessionIdleTtl: e.SESSION_IDLE_TTL,
    adminEmails: e.ADMIN_EMAILS,
    redisUrl: e.REDIS_URL,
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    storageUrl: e.STORAGE_URL,
    backup: { url: e.BACKUP_URL, schedule: e.BACKUP_SCHEDULE, keep: e.BACKUP_KEEP },
    upload: {
      maxFileBytes: e.UPLOAD_MAX_FILE_BYTES,
      maxFiles: e.UPLOAD_MAX_FILES,
      quotaBytes: e.UPLOAD_QUOTA_BYTES,
    },
    // Outside production a per-process secret is enough: links simply stop working after a restart.
    signingSecret: e.SIGNING_SECRET ?? randomSecret(),
    webDist: e.WEB_DIST,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    metricsToken: e.METRICS_TOKEN,
    rateLimits: {
      loginPerIp: e.RATE_LOGIN_PER_IP,
      loginFailuresPerAccountAndIp: e.RATE_LOGIN_FAILURES_PER_ACCOUNT_IP,
      loginFailuresPerAccount: e.RATE_LOGIN_FAILURES_PER_ACCOUNT,
      registerPerIp: e.RATE_REGISTER_PER_IP,
      mailPerIp: e.RATE_MAIL_PER_IP,
      mailPerAddress: e.RATE_MAIL_PER_ADDRESS,
      resetPerIp: e.RATE_RESET_PER_IP,
      resetPerToken: e.RATE_RESET_PER_TOKEN,
      confirmPerIp: e.RATE_CONFIRM_PER_IP,
      confirmPerToken: e.RATE_CONFIRM_PER_TOKEN,
    },
    securityLogRetentionDays: e.SECURITY_LOG_RETENTION_DAYS,
    totpKey: e.TOTP_KEY ?? e.SIGNING_SECRET ?? DEV_TOTP_KEY,
    appLinks: appLinks(e),
    socialEnv: Object.fromEntries(
      Object.entries(env).filter((v): v is [string, string] => /^SOCIAL_/.test(v[0]) && !!v[1]),
    ),
    payments: {
      card: stripe && { secretKey: stripe[0], webhookSecret: stripe[1], apiUrl: e.STRIPE_API_URL },
      paywall: paymentwall && {
        projectKey: paymentwall[0],
        secretKey: paymentwall[1],
        widget: e.PAYMENTWALL_WIDGET,
        pingbackIps: (e.PAYMENTWALL_PINGBACK_IPS ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        apiUrl: e.PAYMENTWALL_API_URL,
      },
      appstore: appStore(e),
      googleplay: googlePlay(e),
      appWebPayments: e.APP_WEB_PAYMENTS,
    },
  };
}

/** An `https://` address, or an `http://` one whose host is this machine. */
function securePublicUrl(value: string): boolean {
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

// Outside production without SIGNING_SECRET or TOTP_KEY: a fixed key, so that second factors set
// up on a development machine survive a restart (the random signing secret would not). Production
// requires SIGNING_SECRET, so it never uses this.
const DEV_TOTP_KEY = 'till development key for TOTP secrets, never used in production';

function randomSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

/**
 * `TRUST_PROXY`: unset means no proxy, in production too. Believing a proxy that is not there lets
 * every client pick its own address with `X-Forwarded-For` and walk past the per-address limits;
 * not believing one that is there only counts its clients together, which the operator sees and sets.
 */
function trustProxyOf(value: string | undefined): boolean | number | string[] {
  if (value === undefined) return false;
  if (value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}
