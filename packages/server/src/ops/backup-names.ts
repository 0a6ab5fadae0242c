import type { Readable } from 'node:stream';

/** A backup archive where backups are kept. */
export interface StoredBackup {
  name: string;
  size: number;
  /** When it was taken (from its name), epoch milliseconds. */
  takenAt: number;
}

/** Archives are named by the time they were taken, so that names sort as times do. */
const NAME = /^till-(\d{8}T\d{9}Z)\.tar\.gz$/;

export function backupName(takenAt: number): string {
  return `till-${new Date(takenAt).toISOString().replace(/[-:.]/g, '')}.tar.gz`;
}

/** The time a backup's name says it was taken, or undefined for a name that is not a backup's. */
export function takenAtOf(name: string): number | undefined {
  const m = NAME.exec(name);
  if (!m?.[1]) return undefined;
  const s = m[1];
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Where backups are kept: a folder or an S3 bucket (`BACKUP_URL`, in the forms of `STORAGE_URL`).
 * An archive appears under its name only once it is complete: in a folder it is written under a
 * temporary name and renamed, on S3 an upload's object appears only when the upload completes.
 */
export interface BackupStore {
  /** Stores the archive at `file` under `name`; a store on the file's disk may move it there. */
  save(name: string, file: string): Promise<void>;
  /** The complete backups, newest first. */
  list(): Promise<StoredBackup[]>;
  open(name: string): Promise<Readable | undefined>;
  remove(name: string): Promise<void>;
  close(): void;
}
