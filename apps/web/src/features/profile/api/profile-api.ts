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

/** Ends one session of the user's, named by the id the sessions list shows. */
export async function endSession(till: Till, id: string) {
  return unwrap(await till.api.endSession(id)).data;
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

export const secondFactorKey = ['me', 'second-factor'] as const;

export function useSecondFactor() {
  const till = useTill();
  return useQuery({
    queryKey: secondFactorKey,
    queryFn: async () => unwrap(await till.api.secondFactorStatus()).data.totp,
  });
}

export async function setupTotp(till: Till) {
  return unwrap(await till.api.totpSetup()).data;
}

export async function enableTotp(till: Till, code: string, currentPassword: string) {
  return unwrap(await till.api.totpEnable({ code, currentPassword })).data.recoveryCodes;
}

export async function disableTotp(
  till: Till,
  input: { currentPassword: string; code?: string; recoveryCode?: string },
) {
  return unwrap(await till.api.totpDisable(input));
}

/** New recovery codes in place of the old ones (the SDK asks for a step-up when the server wants one). */
export async function renewRecoveryCodes(till: Till) {
  return unwrap(await till.api.renewRecoveryCodes()).data.recoveryCodes;
}

/** Every page of the user's security log (to refresh after a change that writes to it). */
export const securityLogKeys = ['me', 'security-log'] as const;
export const securityLogKey = (page: number) => [...securityLogKeys, page] as const;

export function useSecurityLog(page: number, pageSize: number) {
  const till = useTill();
  return useQuery({
    queryKey: securityLogKey(page),
    queryFn: async () => unwrap(await till.api.securityLog({ page, pageSize })).data,
    placeholderData: (previous) => previous,
  });
}
