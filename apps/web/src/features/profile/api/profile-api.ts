import { useQuery } from '@tanstack/react-query';
import type { FileInfo, UpdateInfoRequest } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';

export async function updateProfile(till: Till, changes: Omit<UpdateInfoRequest, 'token'>) {
  return unwrap(await till.api.updateInfo(changes)).user;
}

export const sessionsKey = ['me', 'sessions'] as const;

export function useSessions() {
  const till = useTill();
  return useQuery({
    queryKey: sessionsKey,
    queryFn: async () => unwrap(await till.api.sessions()).data.sessions,
  });
}

export async function revokeOtherSessions(till: Till) {
  return unwrap(await till.api.revokeSessions()).data.revoked;
}

/** Uploads the avatar image as a public file (so that its link lasts) and answers the file. */
export async function uploadAvatar(till: Till, file: File): Promise<FileInfo> {
  const data = await serviceData<{ files: FileInfo[] }>(
    till,
    'api/files/upload',
    { public: 'true' },
    { files: [file] },
  );
  const uploaded = data.files[0];
  if (!uploaded) throw new Error('the upload answered no file');
  return uploaded;
}
