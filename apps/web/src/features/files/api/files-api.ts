import { useQuery } from '@tanstack/react-query';
import type { FileInfo } from '@till/protocol';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';

export const filesKey = ['files'] as const;

/** The user's files (the server caps a page at 100; the table pages through them in memory). */
export function useFiles() {
  const till = useTill();
  return useQuery({
    queryKey: filesKey,
    queryFn: () =>
      serviceData<{ files: FileInfo[]; total: number }>(till, 'api/files/list', { page: 1, pageSize: 100 }),
  });
}

/** Uploads files in one multipart call, reporting the share sent so far (0 to 1). */
export async function uploadFiles(till: Till, files: File[], onProgress: (share: number) => void) {
  const data = await serviceData<{ files: FileInfo[] }>(
    till,
    'api/files/upload',
    {},
    {
      files,
      onUploadProgress: (e) => onProgress(e.total ? e.loaded / e.total : (e.progress ?? 0)),
    },
  );
  return data.files;
}

export async function deleteFile(till: Till, id: string) {
  await serviceData<Record<string, never>>(till, 'api/files/delete', { id });
}
