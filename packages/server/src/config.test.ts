import { describe, expect, it } from 'vitest';
import { ConfigError, defaultRateLimits, loadConfig } from './config.js';

describe('config', () => {
  it('has working defaults: SQLite, port 3000, loopback, a dev outbox, a week-long session', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/till.db',
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      sessionTtl: 604_800,
      production: false,
      storageUrl: 'file:./data/uploads',
      shutdownGraceMs: 10_000,
      sqliteGroupCommit: true,
    });
    expect(c.signingSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads the backup settings: a folder or bucket, a cron schedule (off by default), how many to keep', () => {
    expect(loadConfig({}).backup).toEqual({ url: 'file:./data/backups', schedule: undefined, keep: 7 });
    expect(
      loadConfig({ BACKUP_URL: 's3://till-backups/nightly', BACKUP_SCHEDULE: '30 2 * * *', BACKUP_KEEP: '14' }).backup,
    ).toEqual({ url: 's3://till-backups/nightly', schedule: '30 2 * * *', keep: 14 });
    expect(() => loadConfig({ BACKUP_SCHEDULE: 'every night' })).toThrow(/^BACKUP_SCHEDULE: must be a cron expression/);
    expect(() => loadConfig({ BACKUP_URL: 'ftp://host/x' })).toThrow(/^BACKUP_URL: must be file:PATH or s3:\/\/BUCKET/);
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/^BACKUP_KEEP:/);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db:5432/till',
      PUBLIC_URL: 'https://till.example/',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Till <hi@till.example>',
      SESSION_TTL: '3600',
      SESSION_IDLE_TTL: '900',
      ADMIN_EMAILS: 'Boss@Till.example, ops@till.example',
      REDIS_URL: 'redis://cache:6379',
      CORS_ORIGINS: 'https://a.example,https://b.example',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '25000',
      SQLITE_GROUP_COMMIT: 'off',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db:5432/till',
      publicUrl: 'https://till.example',
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Till <hi@till.example>',
      sessionTtl: 3600,
      sessionIdleTtl: 900,
      adminEmails: ['boss@till.example', 'ops@till.example'],
      redisUrl: 'redis://cache:6379',
      corsOrigins: ['https://a.example', 'https://b.example'],
      logLevel: 'warn',
      shutdownGraceMs: 25_000,
      sqliteGroupCommit: false,
    });
  });

  it.each([
    ['PORT', 'not-a-port'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SQLITE_GROUP_COMMIT', 'no'],
    ['PUBLIC_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['SESSION_TTL', '-5'],
    ['SESSION_IDLE_TTL', '30'],
    ['SESSION_IDLE_TTL', 'a day'],
    ['REDIS_URL', 'localhost:6379'],
    ['LOG_LEVEL', 'loud'],
    ['SHUTDOWN_GRACE_MS', 'soon'],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['STRIPE_SECRET_KEY', 'pk_test_abc'],
    ['STRIPE_WEBHOOK_SECRET', 'secret'],
    ['STRIPE_API_URL', 'stripe.local'],
    ['PAYMENTWALL_PROJECT_KEY', 'a key with spaces'],
    ['PAYMENTWALL_WIDGET', 'p1 1'],
    ['PAYMENTWALL_API_URL', 'widget'],
  ])('stops on a bad %s naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^${variable}:`));
  });

  it('needs SMTP, a signing secret and a public URL in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/^SMTP_URL:/);
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://m:25' })).toThrow(/^SIGNING_SECRET:/);
    const c = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://m:25',
      SIGNING_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://till.example',
    });
    expect(c.production).toBe(true);
  });

  it('refuses an http:// PUBLIC_URL in production unless its host is this machine', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://m:25', SIGNING_SECRET: 'x'.repeat(40) };
    for (const url of ['http://till.example', 'http://10.0.0.5:3000', 'http://localhost.till.example']) {
      expect(() => loadConfig({ ...production, PUBLIC_URL: url }), url).toThrow(/^PUBLIC_URL:/);
    }
    for (const url of ['https://till.example', 'http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect(loadConfig({ ...production, PUBLIC_URL: url }).production, url).toBe(true);
    }
    expect(loadConfig({ PUBLIC_URL: 'http://till.example' }).publicUrl).toBe('http://till.example');
  });

  it('believes no proxy unless TRUST_PROXY says so, in production too', () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://m:25',
      SIGNING_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://t.example',
    };
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig(production).trustProxy).toBe(false);
    expect(loadConfig({ ...production, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/^TRUST_PROXY:/);
  });

  it('reads the rate limits, defaulting to the documented budgets', () => {
    expect(loadConfig({}).rateLimits).toEqual(defaultRateLimits);
    expect(loadConfig({ RATE_LOGIN_PER_IP: '5', RATE_MAIL_PER_ADDRESS: '2' }).rateLimits).toMatchObject({
      loginPerIp: 5,
      mailPerAddress: 2,
      loginFailuresPerAccountAndIp: 10,
    });
    expect(() => loadConfig({ RATE_LOGIN_FAILURES_PER_ACCOUNT: '0' })).toThrow(/^RATE_LOGIN_FAILURES_PER_ACCOUNT:/);
  });

  it('reads the reset and confirmation limits, the security-log retention and the TOTP key', () => {
    const c = loadConfig({
      RATE_RESET_PER_IP: '7',
      RATE_RESET_PER_TOKEN: '2',
      RATE_CONFIRM_PER_IP: '9',
      RATE_CONFIRM_PER_TOKEN: '3',
      SECURITY_LOG_RETENTION_DAYS: '90',
    });
    expect(c.rateLimits).toMatchObject({ resetPerIp: 7, resetPerToken: 2, confirmPerIp: 9, confirmPerToken: 3 });
    expect(c.securityLogRetentionDays).toBe(90);
    expect(loadConfig({}).securityLogRetentionDays).toBe(365);
    expect(loadConfig({}).mailOutboxRetentionDays).toBe(30);
    expect(loadConfig({ MAIL_OUTBOX_RETENTION_DAYS: '60' }).mailOutboxRetentionDays).toBe(60);
    expect(() => loadConfig({ MAIL_OUTBOX_RETENTION_DAYS: '7' })).toThrow(
      /^MAIL_OUTBOX_RETENTION_DAYS: must be at least 8 days/,
    );
    expect(() => loadConfig({ RATE_RESET_PER_TOKEN: '0' })).toThrow(/^RATE_RESET_PER_TOKEN:/);
    expect(() => loadConfig({ TOTP_KEY: 'short' })).toThrow(/^TOTP_KEY:/);
    const secret = 's'.repeat(40);
    expect(loadConfig({ SIGNING_SECRET: secret }).totpKey).toBe(secret);
    expect(loadConfig({ SIGNING_SECRET: secret, TOTP_KEY: 'k'.repeat(40) }).totpKey).toBe('k'.repeat(40));
  });

  it('hides web payments in the phone apps unless APP_WEB_PAYMENTS shows them', () => {
    expect(loadConfig({}).payments.appWebPayments).toBe('hidden');
    expect(loadConfig({ APP_WEB_PAYMENTS: 'shown' }).payments.appWebPayments).toBe('shown');
    expect(() => loadConfig({ APP_WEB_PAYMENTS: 'yes' })).toThrow(/APP_WEB_PAYMENTS/);
  });

  it('turns a payment route on only when both its keys are set, and stops on one alone', () => {
    expect(loadConfig({}).payments).toEqual({ card: undefined, paywall: undefined, appWebPayments: 'hidden' });
    const c = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      PAYMENTWALL_PROJECT_KEY: 'proj1',
      PAYMENTWALL_SECRET_KEY: 'sec1',
      PAYMENTWALL_PINGBACK_IPS: '127.0.0.1, 10.0.0.0/8',
    });
    expect(c.payments.card).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(c.payments.paywall).toEqual({
      projectKey: 'proj1',
      secretKey: 'sec1',
      widget: 'p1_1',
      pingbackIps: ['127.0.0.1', '10.0.0.0/8'],
      apiUrl: undefined,
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(/^STRIPE_WEBHOOK_SECRET: is required/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/^STRIPE_SECRET_KEY: is required/);
    expect(() => loadConfig({ PAYMENTWALL_SECRET_KEY: 'sec1' })).toThrow(/^PAYMENTWALL_PROJECT_KEY: is required/);
  });
});
