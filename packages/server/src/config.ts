import { Cron } from 'croner';
import { z } from 'zod';
import { APP_WEB_PAYMENTS, type AppWebPayments } from '@till/protocol';
import { appStoreConfig } from './modules/payments/providers/appstore/config.js';
import { googlePlayConfig } from './modules/payments/providers/googleplay/config.js';
import { paymentwallConfig } from './modules/payments/providers/paymentwall/config.js';
import { stripeConfig } from './modules/payments/providers/stripe/config.js';
import { ConfigError, csv, type ProviderConfig } from './variables.js';

export { ConfigError } from './variables.js';

/**
 * The payment providers' parts of the configuration, each kept in its folder's `config.ts` (its
 * variables, their checks and how its settings are read), under the route name its settings go by
 * in {@link Config.payments}. A new provider is one line here.
 */
const providers = {
  card: stripeConfig,
  paywall: paymentwallConfig,
  appstore: appStoreConfig,
  googleplay: googlePlayConfig,
};

type Providers = typeof providers;
/** Every provider's variables, together. */
type ProviderVariables = UnionToIntersection<Providers[keyof Providers]['variables']>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Each provider's settings under its route name; absent, or undefined, while it is not set up. */
export type PaymentsSettings = {
  [K in keyof Providers]?: Providers[K] extends ProviderConfig<z.ZodRawShape, infer S> ? S | undefined : never;
};

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
  // Over a week: the job that tells of a subscription's end looks a week back for a sent notice.
  MAIL_OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(8, 'must be at least 8 days').default(30),
  TOTP_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ...(Object.assign({}, ...Object.values(providers).map((p) => p.variables)) as ProviderVariables),
  // Whether the phone apps offer the web payment routes; the stores' rules ask for `hidden`.
  APP_WEB_PAYMENTS: z.enum(APP_WEB_PAYMENTS).default('hidden'),
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
  /** Days a sent shop mail's row is kept in `mail_outbox` (the record of what was told to whom). */
  mailOutboxRetentionDays: number;
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
  payments: PaymentsSettings & {
    /**
     * Whether the phone apps offer the web routes besides their in-app store (`APP_WEB_PAYMENTS`);
     * absent counts as `hidden`.
     */
    appWebPayments?: AppWebPayments;
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
    mailOutboxRetentionDays: e.MAIL_OUTBOX_RETENTION_DAYS,
    totpKey: e.TOTP_KEY ?? e.SIGNING_SECRET ?? DEV_TOTP_KEY,
    appLinks: appLinks(e),
    payments: { ...readProviders(e), appWebPayments: e.APP_WEB_PAYMENTS },
    socialEnv: Object.fromEntries(
      Object.entries(env).filter((v): v is [string, string] => /^SOCIAL_/.test(v[0]) && !!v[1]),
    ),
  };
}

/** Each provider's settings, read in the order of {@link providers}. */
function readProviders(e: z.output<typeof envSchema>): PaymentsSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, provider] of Object.entries(providers) as [string, ProviderConfig<z.ZodRawShape, unknown>][])
    settings[name] = provider.read(e);
  return settings as PaymentsSettings;
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
