import { loadConfig } from '../config.js';
import { openStorage } from '../modules/files/index.js';
import { checkData } from '../ops/check-data.js';
import { openForReading } from '../ops/read-only.js';

/**
 * `npm run check-data`: checks the database and the uploads that `DATABASE_URL` and `STORAGE_URL`
 * name, prints what is off, and exits with 1 when anything is.
 */
const config = loadConfig();
let db;
try {
  db = await openForReading(config.databaseUrl);
} catch (error) {
  console.error(`the database cannot be read: ${(error as Error).message}`);
  process.exit(2);
}
const storage = await openStorage(config.storageUrl);
try {
  const found = await checkData(db.kysely, storage);
  for (const f of found) process.stdout.write(`${f.check}: ${f.detail}\n`);
  const summary =
    found.length === 0
      ? 'the data is consistent'
      : found.length === 1
        ? '1 thing is off'
        : `${found.length} things are off`;
  process.stdout.write(`${summary}\n`);
  process.exitCode = found.length ? 1 : 0;
} finally {
  await db.close();
  await storage.close();
}
