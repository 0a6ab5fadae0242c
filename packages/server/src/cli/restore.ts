import { parseArgs } from 'node:util';
import { RestoreRefused, restoreArchive } from '../ops/restore.js';

/**
 * `npm run restore -- ARCHIVE [--data DIR] [--force]`: restores a backup archive into a data folder
 * (`./data` by default), which must be empty unless `--force`, and runs the newer migrations. Start
 * the server on it with `DATABASE_URL=sqlite:DIR/till.db STORAGE_URL=file:DIR/uploads`.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { data: { type: 'string', default: './data' }, force: { type: 'boolean', default: false } },
});
const archive = positionals[0];
if (!archive || positionals.length > 1) {
  console.error('usage: npm run restore -- ARCHIVE [--data DIR] [--force]');
  process.exit(2);
}
try {
  const r = await restoreArchive({ archive, dataDir: values.data, force: values.force });
  console.error(
    `restored the backup of ${r.manifest.takenAt} (Till ${r.manifest.till}, migration ${r.manifest.migration}): ` +
      `${r.manifest.uploads.length} uploads` +
      (r.migrated.length ? `; migrations applied: ${r.migrated.join(', ')}` : ''),
  );
  if (r.manifest.missing.length)
    console.error(`objects that were gone when the backup was taken: ${r.manifest.missing.join(', ')}`);
  console.error(`start the server with DATABASE_URL=sqlite:${r.databaseFile} STORAGE_URL=file:${r.uploadsDir}`);
} catch (error) {
  if (!(error instanceof RestoreRefused)) throw error;
  console.error(`restore refused: ${error.message}`);
  process.exit(1);
}
