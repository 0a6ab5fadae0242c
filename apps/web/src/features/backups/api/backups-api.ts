import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BackupPaths,
  type AdminBackupLinkData,
  type AdminBackupsListData,
  type AdminBackupStartData,
} from '@till/protocol';
import { serviceData } from '@/lib/calls';
import { useTill } from '@/lib/till';

export const backupKeys = { list: ['admin', 'backups'] as const };

/** How often the list is read again while a backup is being taken, for its progress. */
export const RUNNING_REFRESH_MS = 1000;

/**
 * The kept backups, newest first, the settings that take them, and the backup being taken (read
 * again every second while one is).
 */
export function useBackups() {
  const till = useTill();
  return useQuery({
    queryKey: backupKeys.list,
    queryFn: () => serviceData<AdminBackupsListData>(till, BackupPaths.list),
    refetchInterval: (query) => (query.state.data?.run?.state === 'running' ? RUNNING_REFRESH_MS : false),
  });
}

/** Starts a backup: the server answers at once, and the list shows it running until it is stored. */
export function useStartBackup() {
  const till = useTill();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await serviceData<AdminBackupStartData>(till, BackupPaths.start)).run,
    onSuccess: (run) => {
      client.setQueryData<AdminBackupsListData>(backupKeys.list, (list) => (list ? { ...list, run } : list));
      return client.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** A short-lived link that downloads a backup (the server may ask for the password again first). */
export async function backupLink(till: ReturnType<typeof useTill>, name: string): Promise<string> {
  return (await serviceData<AdminBackupLinkData>(till, BackupPaths.link, { name })).url;
}
