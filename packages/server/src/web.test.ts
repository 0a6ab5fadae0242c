import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-support/app.js';

describe('serving the built web app', () => {
  const dist = mkdtempSync(join(tmpdir(), 'till-dist-'));
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Till shell</title>');
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log("app")');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Till"}');
    writeFileSync(join(tmpdir(), 'outside-the-build.txt'), 'secret');
    t = await startTestApp({ config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves the files of the build, hashed assets for a year', async () => {
    const asset = await get('/assets/app-1a2b.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toContain('immutable');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toContain('max-age=0');
  });

  it('answers client-side routes with the shell, and unknown files, APIs and the worker with 404', async () => {
    for (const route of ['/', '/orders/abc', '/confirm/some-token']) {
      const page = await get(route);
      expect(page.statusCode, route).toBe(200);
      expect(page.body).toContain('Till shell');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
    for (const missing of ['/assets/gone-9z.js', '/api/nothing', '/sw.js']) {
      expect((await get(missing)).statusCode, missing).toBe(404);
    }
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/../outside-the-build.txt',
      '/%2e%2e/outside-the-build.txt',
      '/assets/..%2f..%2foutside-the-build.txt',
    ]) {
      const res = await get(url);
      expect(res.body, url).not.toContain('secret');
    }
  });
});
