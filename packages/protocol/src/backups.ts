import { z } from 'zod';

const token = z.string().min(1).max(512);

/** A backup archive as administrators see it: its name, size in bytes and when it was taken. */
export const backupSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  takenAt: z.iso.datetime(),
});
export type Backup = z.infer<typeof backupSchema>;

export const adminBackupsListRequest = z.object({ token });
/**
 * The kept backups, newest first. `available` is false where the server cannot take them itself
 * (PostgreSQL: see docs/backups.md); `schedule` is the cron expression, null when off.
 */
export const adminBackupsListData = z.object({
  backups: z.array(backupSchema),
  available: z.boolean(),
  schedule: z.string().nullable(),
  keep: z.number().int().positive(),
});
export type AdminBackupsListData = z.infer<typeof adminBackupsListData>;

export const adminBackupStartRequest = z.object({ token });
/** The backup just taken; the call answers once it is stored. */
export const adminBackupStartData = z.object({ backup: backupSchema });
export type AdminBackupStartData = z.infer<typeof adminBackupStartData>;

export const adminBackupLinkRequest = z.object({ token, name: z.string().min(1).max(100) });
/** A link that downloads the archive without a session, for a few minutes. */
export const adminBackupLinkData = z.object({ url: z.string() });
export type AdminBackupLinkData = z.infer<typeof adminBackupLinkData>;

/** The backup calls' paths, as the web app's generic service calls name them. */
export const BackupPaths = {
  list: 'api/admin/backups/list',
  start: 'api/admin/backups/start',
  link: 'api/admin/backups/link',
} as const;
