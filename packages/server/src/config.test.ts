import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
    });
    expect(c.signingSecret.length).toBeGreaterThanOrEqual(32);
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
      ADMIN_EMAILS: 'Boss@Till.example, ops@till.example',
      REDIS_URL: 'redis://cache:6379',
      CORS_ORIGINS: 'https://a.example,https://b.example',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db:5432/till',
      publicUrl: 'https://till.example',
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Till <hi@till.example>',
      sessionTtl: 3600,
      adminEmails: ['boss@till.example', 'ops@till.example'],
      redisUrl: 'redis://cache:6379',
      corsOrigins: ['https://a.example', 'https://b.example'],
      logLevel: 'warn',
    });
  });

  it.each([
    ['PORT', 'not-a-port'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['SESSION_TTL', '-5'],
    ['REDIS_URL', 'localhost:6379'],
    ['LOG_LEVEL', 'loud'],
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
});
