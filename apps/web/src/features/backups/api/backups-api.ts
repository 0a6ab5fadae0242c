import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminBackupsListData } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
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
    queryFn: async () => unwrap(await till.api.backups.list()).data,
    refetchInterval: (query) => (query.state.data?.run?.state === 'running' ? RUNNING_REFRESH_MS : false),
  });
}

/** Starts a backup: the server answers at once, and the list shows it running until it is stored. */
export function useStartBackup() {
  const till = useTill();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await till.api.backups.start()).data.run,
    onSuccess: (run) => {
      client.setQueryData<AdminBackupsListData>(backupKeys.list, (list) => (list ? { ...list, run } : list));
      return client.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** A short-lived link that downloads a backup (the server may ask for the password again first). */
export async function backupLink(till: ReturnType<typeof useTill>, name: string): Promise<string> {
  return unwrap(await till.api.backups.link(name)).data.url;
}
