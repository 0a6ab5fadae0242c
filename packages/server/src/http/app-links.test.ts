import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { configProblem } from '@till/test-support/config';

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(':');
const OTHER = Array.from({ length: 32 }, () => 'FA').join(':');

const problem = configProblem;

describe('app links files', () => {
  const dist = mkdtempSync(join(tmpdir(), 'till-dist-'));
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    on = await startTestApp({
      env: {
        ANDROID_PACKAGE_NAME: 'com.example.till',
        ANDROID_CERT_FINGERPRINTS: `${FINGERPRINT}, ${OTHER}`,
        IOS_TEAM_ID: 'ABCDE12345',
        IOS_BUNDLE_ID: 'com.example.till',
      },
    });
    // With the web app built, whose page answers every other address without an extension.
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Till shell</title>');
    off = await startTestApp({ config: { webDist: dist } });
  });
  afterAll(async () => {
    await on.close();
    await off.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves assetlinks.json for the Android package and its signing certificates', async () => {
    const res = await on.app.inject({ method: 'GET', url: '/.well-known/assetlinks.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.example.till',
          // As Android compares them: upper-case hex pairs.
          sha256_cert_fingerprints: [FINGERPRINT.toUpperCase(), OTHER],
        },
      },
    ]);
  });

  it('serves apple-app-site-association for TEAMID.bundleid with the confirm, reset and order paths', async () => {
    const res = await on.app.inject({ method: 'GET', url: '/.well-known/apple-app-site-association' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.location).toBeUndefined();
    expect(res.json()).toEqual({
      applinks: {
        details: [
          {
            appIDs: ['ABCDE12345.com.example.till'],
            components: [{ '/': '/confirm/*' }, { '/': '/reset/*' }, { '/': '/orders/*' }],
          },
        ],
      },
    });
  });

  it('answers 404 for both when no app is configured', async () => {
    for (const url of ['/.well-known/assetlinks.json', '/.well-known/apple-app-site-association']) {
      const res = await off.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('takes the package and bundle id of the in-app stores when not named again', () => {
    const config = loadConfig({
      GOOGLE_PLAY_PACKAGE_NAME: 'com.example.shop',
      GOOGLE_SERVICE_ACCOUNT: JSON.stringify({
        client_email: 'play@example.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
      }),
      GOOGLE_PUSH_SECRET: 'a-shared-push-secret-of-at-least-32-chars',
      ANDROID_CERT_FINGERPRINTS: OTHER,
    });
    expect(config.appLinks).toEqual({
      android: { packageName: 'com.example.shop', fingerprints: [OTHER] },
      ios: undefined,
    });
  });

  it('stops the start naming a fingerprint that is not a SHA-256 one, or a half-set platform', () => {
    const android = { ANDROID_PACKAGE_NAME: 'com.example.till' };
    expect(problem({ ...android, ANDROID_CERT_FINGERPRINTS: 'AB:CD' })).toBe('ANDROID_CERT_FINGERPRINTS');
    expect(problem({ ...android, ANDROID_CERT_FINGERPRINTS: FINGERPRINT.replaceAll(':', '') })).toBe(
      'ANDROID_CERT_FINGERPRINTS',
    );
    expect(problem({ ...android, ANDROID_CERT_FINGERPRINTS: `${FINGERPRINT},${OTHER.slice(3)}` })).toBe(
      'ANDROID_CERT_FINGERPRINTS',
    );
    expect(problem(android)).toBe('ANDROID_CERT_FINGERPRINTS');
    expect(problem({ ANDROID_CERT_FINGERPRINTS: FINGERPRINT })).toBe('ANDROID_PACKAGE_NAME');
    expect(problem({ IOS_TEAM_ID: 'ABCDE12345' })).toBe('IOS_BUNDLE_ID');
    expect(problem({ IOS_BUNDLE_ID: 'com.example.till' })).toBe('IOS_TEAM_ID');
    expect(problem({ IOS_TEAM_ID: 'abc', IOS_BUNDLE_ID: 'com.example.till' })).toBe('IOS_TEAM_ID');
  });
});
