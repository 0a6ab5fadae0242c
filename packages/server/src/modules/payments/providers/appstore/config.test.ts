import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../config.js';
import { configProblem } from '@till/test-support/config';

// Files the variables point at: a key as App Store Connect hands it out, and a file that is no certificate.
const dir = mkdtempSync(join(tmpdir(), 'till-apple-config-'));
const keyPath = join(dir, 'AuthKey_ABCDEFGHIJ.p8');
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
writeFileSync(keyPath, key);
const notACert = join(dir, 'not-a-cert.cer');
writeFileSync(notACert, 'hello');

const base = {
  APPLE_BUNDLE_ID: 'com.example.till',
  APPLE_APP_ID: '1234567890',
  APPLE_ISSUER_ID: '57246542-96fe-1a63-e053-0824d011072a',
  APPLE_KEY_ID: 'ABCDEFGHIJ',
  APPLE_PRIVATE_KEY: keyPath,
};

const problem = configProblem;

describe('App Store route configuration', () => {
  it('is off when no APPLE_ variable is set', () => {
    expect(loadConfig({}).payments.appstore).toBeUndefined();
    expect(loadConfig({ APPLE_ENVIRONMENT: 'Sandbox' }).payments.appstore).toBeUndefined();
  });

  it('stops the start naming the first missing variable when only some are set', () => {
    expect(problem({ APPLE_BUNDLE_ID: 'com.example.till' })).toBe('APPLE_APP_ID');
    expect(problem({ APPLE_BUNDLE_ID: 'com.example.till', APPLE_ENVIRONMENT: 'Sandbox' })).toBe('APPLE_ISSUER_ID');
    expect(problem({ APPLE_KEY_ID: 'ABCDEFGHIJ' })).toBe('APPLE_BUNDLE_ID');
    expect(problem(base)).toBe('APPLE_ROOT_CERTS');
  });

  it('names a value that is not what Apple issues', () => {
    expect(problem({ ...base, APPLE_KEY_ID: 'short' })).toBe('APPLE_KEY_ID');
    expect(problem({ ...base, APPLE_APP_ID: 'com.example' })).toBe('APPLE_APP_ID');
    expect(problem({ ...base, APPLE_ENVIRONMENT: 'Xcode' })).toBe('APPLE_ENVIRONMENT');
    expect(problem({ ...base, APPLE_ACCEPT_SANDBOX: 'no' })).toBe('APPLE_ACCEPT_SANDBOX');
    expect(problem({ ...base, APPLE_SANDBOX_API_URL: 'sandbox' })).toBe('APPLE_SANDBOX_API_URL');
    expect(problem({ ...base, APPLE_ROOT_CERTS: notACert })).toBe('APPLE_ROOT_CERTS');
    expect(problem({ ...base, APPLE_ROOT_CERTS: join(dir, 'missing.cer') })).toBe('APPLE_ROOT_CERTS');
    expect(problem({ ...base, APPLE_PRIVATE_KEY: join(dir, 'missing.p8'), APPLE_ROOT_CERTS: notACert })).toBe(
      'APPLE_PRIVATE_KEY',
    );
  });
});
