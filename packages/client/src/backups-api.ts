import {
  BackupPaths,
  type AdminBackupLinkData,
  type AdminBackupsListData,
  type AdminBackupStartData,
} from '@till/protocol';
import type { Answer } from './answers.js';
import type { CallSpec } from './call-spec.js';

/** What these calls need of the `ApiClient` they belong to. */
interface AdminCalls {
  request<T>(spec: CallSpec): Promise<Answer<T>>;
}

type Data<T> = { code: 900; data: T };

/**
 * The administrators' backup calls of an `ApiClient` (`api.backups`, level 9, SQLite servers):
 * {@link start} answers at once with the backup running; {@link list} carries it (`data.run`: its
 * state, step and progress, then the stored backup or the step it failed in) beside the kept
 * backups; {@link untilEnded} reads the list until the backup has ended. A start while a backup
 * is being taken, by this server or another, answers 912 `in_progress`. Every method resolves to the
 * server's answer or a 905; none throws.
 *
 * @example
 * const started = await till.api.backups.start();
 * if (started.code === 912 && started.reason === 'in_progress') say('A backup is being taken already');
 * const ended = await till.api.backups.untilEnded((run) => show(run.step, run.done, run.total));
 */
export class BackupsApi {
  constructor(private readonly api: AdminCalls) {}

  /**
   * The kept backups, newest first, the settings that take them, and the backup being taken or
   * the last one this server took (`run`).
   *
   * @example
   * const res = await api.backups.list();
   */
  list(): Promise<Answer<Data<AdminBackupsListData>>> {
    return this.api.request({ path: BackupPaths.list, token: 'required' });
  }

  /**
   * Starts a backup; the server answers at once with it running (912 `in_progress` while one is,
   * 912 `unavailable` on PostgreSQL).
   *
   * @example
   * const res = await api.backups.start();
   */
  start(): Promise<Answer<Data<AdminBackupStartData>>> {
    return this.api.request({ path: BackupPaths.start, token: 'required' });
  }

  /**
   * Reads the list every `everyMs` until the backup being taken has ended, telling `onRun` of each
   * reading: the last list answer (its `run` done or failed), or the first answer that was not 900.
   *
   * @example
   * const res = await api.backups.untilEnded();
   * if (res.code === 900 && res.data.run?.state === 'done') say(`Stored: ${res.data.run.backup?.name}`);
   */
  async untilEnded(
    onRun: (run: NonNullable<AdminBackupsListData['run']>) => void = () => undefined,
    everyMs = 1000,
  ): Promise<Answer<Data<AdminBackupsListData>>> {
    for (;;) {
      const res = await this.list();
      if (res.code !== 900) return res;
      if (res.data.run) onRun(res.data.run);
      if (res.data.run?.state !== 'running') return res;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  /**
   * A link that downloads a backup for ten minutes; the password must have been proved recently
   * (914, which the SDK's step-up handler answers when it has one).
   *
   * @example
   * const res = await api.backups.link('till-20261127T030000000Z.tar.gz');
   */
  link(name: string): Promise<Answer<Data<AdminBackupLinkData>>> {
    return this.api.request({ path: BackupPaths.link, fields: { name }, token: 'required' });
  }
}
