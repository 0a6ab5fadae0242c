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

/** The kept backups, newest first, and the settings that take them. */
export function useBackups() {
  const till = useTill();
  return useQuery({
    queryKey: backupKeys.list,
    queryFn: () => serviceData<AdminBackupsListData>(till, BackupPaths.list),
  });
}

/** Takes a backup now; the list is read again once it is stored. */
export function useStartBackup() {
  const till = useTill();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await serviceData<AdminBackupStartData>(till, BackupPaths.start)).backup,
    onSuccess: () => client.invalidateQueries({ queryKey: backupKeys.list }),
  });
}

/** A short-lived link that downloads a backup (the server may ask for the password again first). */
export async function backupLink(till: ReturnType<typeof useTill>, name: string): Promise<string> {
  return (await serviceData<AdminBackupLinkData>(till, BackupPaths.link, { name })).url;
}
