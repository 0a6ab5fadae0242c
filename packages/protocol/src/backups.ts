import { z } from 'zod';

const token = z.string().min(1).max(512);

/** A backup archive as administrators see it: its name, size in bytes and when it was taken. */
export const backupSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  takenAt: z.iso.datetime(),
});
export type Backup = z.infer<typeof backupSchema>;

/** The steps of a backup, in order: the database copied, the uploads copied, hashed and packed, stored. */
export const backupSteps = ['snapshot', 'uploads', 'archive', 'store'] as const;
export type BackupStep = (typeof backupSteps)[number];

/**
 * A backup taken on demand or on the schedule, as it goes: `running` with its step and how far that
 * step has come (`done` of `total`: uploads copied, bytes hashed and packed; 0 of 0 while the database
 * is copied), then `done` with the stored backup or `failed` with the step it failed in (what went
 * wrong is in the server's log).
 */
export const backupRunSchema = z.object({
  state: z.enum(['running', 'done', 'failed']),
  step: z.enum(backupSteps),
  done: z.number().nonnegative(),
  total: z.number().nonnegative(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  backup: backupSchema.nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

export const adminBackupsListRequest = z.object({ token });
/**
 * The kept backups, newest first. `available` is false where the server cannot take them itself
 * (PostgreSQL: see docs/backups.md); `schedule` is the cron expression, null when off. `run` is the
 * backup this server is taking, or the last one it took since it started (null before the first).
 */
export const adminBackupsListData = z.object({
  backups: z.array(backupSchema),
  run: backupRunSchema.nullable(),
  available: z.boolean(),
  schedule: z.string().nullable(),
  keep: z.number().int().positive(),
});
export type AdminBackupsListData = z.infer<typeof adminBackupsListData>;

export const adminBackupStartRequest = z.object({ token });
/**
 * The backup just started, `running`: the call answers at once (HTTP 202), and the list's `run` tells
 * how it goes. A backup already being taken, by this server or another, is refused (912 `in_progress`).
 */
export const adminBackupStartData = z.object({ run: backupRunSchema });
export type AdminBackupStartData = z.infer<typeof adminBackupStartData>;

export const adminBackupLinkRequest = z.object({ token, name: z.string().min(1).max(100) });
/** A link that downloads the archive without a session, for a few minutes. */
export const adminBackupLinkData = z.object({ url: z.string() });
export type AdminBackupLinkData = z.infer<typeof adminBackupLinkData>;
