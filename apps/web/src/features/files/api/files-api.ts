import { useQuery } from '@tanstack/react-query';
import { StorePaths, type FileInfo, type FilesLimitsData } from '@till/protocol';
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

/** What an upload may be (the server's limits), to say before a file is chosen and check after. */
export function useUploadLimits() {
  const till = useTill();
  return useQuery({
    queryKey: ['files', 'limits'],
    queryFn: () => serviceData<FilesLimitsData>(till, StorePaths.filesLimits, {}, { token: 'optional' }),
    staleTime: Infinity,
  });
}

/**
 * The first file the server would refuse for its size or type, checked here so that a file too
 * large is never sent: `too_large`, `type` (the browser names a type, and neither it nor the name's
 * ending is an allowed one; the server still checks the content), or `too_many` for too many at once.
 */
export function refuseFiles(
  files: readonly File[],
  limits: Pick<FilesLimitsData, 'maxFileBytes' | 'maxFiles' | 'types' | 'extensions'>,
): { reason: 'too_large' | 'type' | 'too_many'; file: File | null } | null {
  if (files.length > limits.maxFiles) return { reason: 'too_many', file: null };
  for (const file of files) {
    if (file.size > limits.maxFileBytes) return { reason: 'too_large', file };
    const dot = file.name.lastIndexOf('.');
    const ending = dot >= 0 ? file.name.slice(dot).toLowerCase() : '';
    // A type the browser cannot name ('' or application/octet-stream) is left to the server, which
    // judges the content; a named type and ending that are both off the lists are refused here.
    const unnamed = !file.type || file.type === 'application/octet-stream';
    if (!unnamed && !limits.types.includes(file.type) && !limits.extensions.includes(ending))
      return { reason: 'type', file };
  }
  return null;
}
