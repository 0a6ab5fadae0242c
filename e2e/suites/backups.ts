import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import * as tar from 'tar';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes, formatDate } from '../../apps/web/src/lib/format.js';
import { fill } from '../support/flows.js';
import {
  checkScreen,
  PASSWORD,
  screenshotIfFailed,
  signedInAccount,
  startEnv,
  type Env,
  type Viewport,
} from '../support/env.js';

interface Listed {
  backups: { name: string; size: number; takenAt: string }[];
}

/**
 * The administration's Backups tab at one screen size: no backup at first, one taken from the tab
 * (the server answers at once; the tab shows it running, with its step and progress, until the server
 * has stored it), listed with its size and time; a second refused while another server holds the
 * backup lease; and the first downloaded: the file is a gzipped tar whose manifest names the database.
 */
export function backupsTab(viewport: Viewport): void {
  describe(`the Backups tab at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    let token = '';
    let folder = '';
    const admin = `keeper.${viewport.name}${Date.now().toString(36)}@example.test`;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'till-e2e-backups-'));
      env = await startEnv(admin, { env: { BACKUP_URL: `file:${join(folder, 'kept')}`, BACKUP_KEEP: '3' } });
      ({ ctx, page, token } = await signedInAccount(env, viewport, admin, 'Kim Keeper', { acceptDownloads: true }));
    });
    afterAll(async () => {
      await ctx?.close();
      await env?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-backups`]: page }));

    it('says there is no backup yet, then takes one from the tab and lists it with its size and time', async () => {
      await page.goto('/admin?tab=backups');
      await page.getByText('No backups yet').waitFor();
      await page.getByText('The server takes none by itself').waitFor();
      await checkScreen(page, viewport, 'backups-empty');

      // The server answers the start at once with the backup running; the list's next answers (which
      // would say it is stored: a small database takes a moment) are held until the tab has been seen
      // showing it running, as the start's answer says.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/admin/backups/list', async (route) => {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      });
      const started = page.waitForResponse('**/api/admin/backups/start');
      await page.getByRole('button', { name: 'Take a backup now' }).click();
      expect((await started).status()).toBe(202);
      const taking = page.getByRole('button', { name: 'Taking a backup…' });
      await taking.waitFor();
      expect(await taking.isDisabled()).toBe(true);
      await page.getByText('A backup is being taken (started').waitFor();
      await page.getByText('Copying the database…').waitFor();
      await page.getByRole('progressbar', { name: 'Progress of the backup' }).waitFor();
      await checkScreen(page, viewport, 'backups-taking');
      release();
      const stored = page.getByRole('alert').filter({ hasText: /^Backup .+ is stored\.$/ });
      await stored.waitFor();
      await page.unroute('**/api/admin/backups/list');
      const listed = (await env.app.call('/api/admin/backups/list', { token })) as unknown as { data: Listed };
      expect(listed.data.backups).toHaveLength(1);
      const backup = listed.data.backups[0]!;
      expect(await stored.textContent()).toBe(`Backup ${backup.name} is stored.`);
      expect(await page.getByText('No backups yet').count()).toBe(0);
      const row = page.getByRole('row').filter({ hasText: formatDate(backup.takenAt, 'en-US') });
      await row.waitFor();
      expect(await row.textContent()).toContain(formatBytes(backup.size, 'en-US'));
      expect(await page.getByRole('button', { name: 'Take a backup now' }).isEnabled()).toBe(true);
      await checkScreen(page, viewport, 'backups-listed');
    });

    it('refuses a backup while another server takes one, saying so', async () => {
      // Another instance's backup, as its lease says.
      const db = env.app.ctx.db.kysely;
      const now = Date.now();
      await db
        .insertInto('job_leases')
        .values({ name: 'backup.running', holder: 'another-instance', expires_at: now + 60_000, last_run_at: now })
        .execute();
      try {
        await page.getByRole('button', { name: 'Take a backup now' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: /^A backup is being taken already, by this server or another\./ })
          .waitFor();
        await checkScreen(page, viewport, 'backups-refused');
      } finally {
        await db.deleteFrom('job_leases').where('name', '=', 'backup.running').execute();
      }
      const listed = (await env.app.call('/api/admin/backups/list', { token })) as unknown as { data: Listed };
      expect(listed.data.backups).toHaveLength(1);
    });

    it('downloads the backup: a gzipped tar whose manifest names the database', async () => {
      const listed = (await env.app.call('/api/admin/backups/list', { token })) as unknown as { data: Listed };
      const backup = listed.data.backups[0]!;
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: `Download the backup of ${formatDate(backup.takenAt, 'en-US')}` }).click();
      // A session that proved its password within the last minutes is not asked again.
      const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
      const asked = await Promise.race([dialog.waitFor().then(() => true), downloading.then(() => false)]);
      if (asked) {
        await fill(dialog, 'Password', PASSWORD);
        await dialog.getByRole('button', { name: 'Confirm' }).click();
      }
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(backup.name);
      const file = join(folder, 'downloaded.tar.gz');
      await download.saveAs(file);
      const bytes = readFileSync(file);
      expect(bytes.length).toBe(backup.size);
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
      const entries: string[] = [];
      let manifest = '';
      await tar.t({
        file,
        onReadEntry: (entry) => {
          entries.push(entry.path);
          if (entry.path === 'manifest.json') entry.on('data', (chunk: Buffer) => (manifest += chunk.toString()));
        },
      });
      const named = JSON.parse(manifest) as { database: { path: string; size: number; sha256: string } };
      expect(named.database.path).toBe('database/till.db');
      expect(named.database.size).toBeGreaterThan(0);
      expect(named.database.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(entries).toEqual(expect.arrayContaining(['manifest.json', 'database/till.db']));
    });
  });
}

/**
 * An S3 endpoint whose bucket lists (empty) but refuses every write, as a bucket does whose
 * credentials may read and not write: a backup's archive cannot be stored.
 */
async function refusingBucket(): Promise<{ url: string; refused: () => number; close: () => Promise<void> }> {
  let refused = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/xml');
      if (req.method === 'GET') {
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
            '<Name>kept</Name><Prefix></Prefix><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>' +
            '</ListBucketResult>',
        );
        return;
      }
      refused += 1;
      res.statusCode = 403;
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `s3://kept?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A backup that fails for real: its archive is made, and the place that keeps backups refuses it. The
 * tab says in which step it failed and sends the administrator to the server's log, without the
 * error itself; nothing is listed, and a backup can be started again.
 */
export function failedBackupTab(viewport: Viewport): void {
  describe(`a failed backup on the Backups tab at ${viewport.name} size`, () => {
    let env: Env;
    let bucket: Awaited<ReturnType<typeof refusingBucket>>;
    let ctx: BrowserContext;
    let page: Page;
    let token = '';
    const admin = `refused.${viewport.name}${Date.now().toString(36)}@example.test`;

    beforeAll(async () => {
      bucket = await refusingBucket();
      // The AWS SDK signs with credentials from the environment, as it would real ones.
      process.env.AWS_ACCESS_KEY_ID ??= 'E2EREFUSED';
      process.env.AWS_SECRET_ACCESS_KEY ??= 'E2EREFUSED';
      env = await startEnv(admin, { env: { BACKUP_URL: bucket.url, BACKUP_KEEP: '3' } });
      ({ ctx, page, token } = await signedInAccount(env, viewport, admin, 'Rey Refused'));
    });
    afterAll(async () => {
      await ctx?.close();
      await env?.close();
      await bucket?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-backups-failed`]: page }));

    it('says in which step the backup failed, lists none, and lets the administrator start one again', async () => {
      await page.goto('/admin?tab=backups');
      await page.getByText('No backups yet').waitFor();
      const started = page.waitForResponse('**/api/admin/backups/start');
      await page.getByRole('button', { name: 'Take a backup now' }).click();
      expect((await started).status()).toBe(202);

      const failed = page.getByRole('alert').filter({ hasText: /^The backup started .+ failed while/ });
      await failed.waitFor();
      const listed = (await env.app.call('/api/admin/backups/list', { token })) as unknown as {
        data: Listed & { run: { state: string; step: string; startedAt: string } | null };
      };
      expect(listed.data.run).toMatchObject({ state: 'failed', step: 'store' });
      expect(listed.data.backups).toEqual([]);
      // The archive was made and offered to the bucket, which refused it.
      expect(bucket.refused()).toBeGreaterThan(0);
      expect(await failed.textContent()).toBe(
        `The backup started ${formatDate(listed.data.run!.startedAt, 'en-US')} failed while storing the archive. ` +
          "The server's log says why. Take a backup again once it is fixed.",
      );
      // The bucket's own words stay in the server's log.
      expect(await page.getByText(/Access Denied|AccessDenied/).count()).toBe(0);
      await page.getByText('No backups yet').waitFor();
      expect(await page.getByRole('button', { name: 'Take a backup now' }).isEnabled()).toBe(true);
      await checkScreen(page, viewport, 'backups-failed');
    });
  });
}
