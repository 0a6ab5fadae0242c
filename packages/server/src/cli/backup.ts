import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { BackupRun } from '@till/protocol';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { openStorage } from '../modules/files/index.js';
import { openBackupStore } from '../ops/backup-store.js';
import { takeBackup } from '../ops/backup.js';

/**
 * `npm run backup`: takes a backup of the SQLite database and uploads that `DATABASE_URL` and
 * `STORAGE_URL` name, into `BACKUP_URL`. With no server running it takes it itself, holding the
 * server's lock on the file meanwhile. While a server has the file open, only that server may copy it
 * (docs/decisions/001-group-commit-one-process-per-sqlite-file.md), so the command asks it to:
 * `--server URL` (default: `http://HOST:PORT`) and `--token-file FILE` holding an administrator's
 * session token.
 */
const { values } = parseArgs({
  options: { server: { type: 'string' }, 'token-file': { type: 'string' } },
});
const config = loadConfig();

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!config.databaseUrl.startsWith('sqlite:'))
  stop('On PostgreSQL, back the database up with pg_dump and the uploads with bucket versioning: see docs/backups.md.');
const file = config.databaseUrl.slice('sqlite:'.length);
if (!existsSync(file)) stop(`${file} does not exist: there is nothing to back up`);

let db;
try {
  db = await connect(config.databaseUrl);
} catch (error) {
  if (!/in use by another Till server/.test((error as Error).message)) throw error;
}

if (db) {
  const storage = await openStorage(config.storageUrl);
  const store = await openBackupStore(config.backup.url);
  try {
    const taken = await takeBackup({ databaseFile: file, storage, store, keep: config.backup.keep, now: Date.now });
    console.error(`backup ${taken.name} taken: ${taken.size} bytes, ${taken.manifest.uploads.length} uploads`);
    if (taken.manifest.missing.length)
      console.error(`objects gone while copying: ${taken.manifest.missing.join(', ')}`);
    if (taken.removed.length)
      console.error(`removed, beyond the latest ${config.backup.keep}: ${taken.removed.join(', ')}`);
  } finally {
    store.close();
    await storage.close();
    await db.close();
  }
} else {
  const server = values.server ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  const tokenFile = values['token-file'];
  if (!tokenFile)
    stop(
      `${file} is open by a running server: only it may copy the file. Pass --token-file with an administrator's ` +
        `session token to ask it (at ${server}, or --server URL), or use the Backups screen of the administration.`,
    );
  const token = readFileSync(tokenFile, 'utf8').trim();
  const call = async <D>(path: string): Promise<{ code: number; data?: D }> => {
    const res = await fetch(`${server}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    return (await res.json()) as { code: number; data?: D };
  };
  const started = await call<{ run: BackupRun }>('/api/admin/backups/start');
  if (started.code !== 900 || !started.data) stop(`the server refused the backup: ${JSON.stringify(started)}`);
  console.error('the server is taking the backup…');
  // The server answers at once and takes the backup while it serves; its list tells how it goes.
  let run: BackupRun | null = started.data.run;
  while (run?.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const listed = await call<{ run: BackupRun | null }>('/api/admin/backups/list');
    if (listed.code !== 900 || !listed.data)
      stop(`the server did not say how the backup goes: ${JSON.stringify(listed)}`);
    run = listed.data.run;
  }
  if (run?.state !== 'done' || !run.backup) stop(`the backup failed (in its ${run?.step} step): see the server's log`);
  console.error(`backup ${run.backup.name} taken by the server: ${run.backup.size} bytes`);
}
