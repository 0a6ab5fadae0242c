import { useQuery } from '@tanstack/react-query';
import { PasskeyPaths } from '@till/protocol';
import { serviceData } from '@/lib/calls';
import { secondFactorProof } from '@/lib/second-factor-proof';
import type { Till } from '@/lib/till';

/**
 * Deletes a user's account: `confirm` is their e-mail address, `password` the administrator's own, and
 * `secondFactor` the administrator's code (six digits) or recovery code when their second factor is on.
 */
export async function deleteUser(till: Till, userId: string, confirm: string, password: string, secondFactor = '') {
  await serviceData<Record<string, never>>(till, PasskeyPaths.adminDeleteUser, {
    userId,
    confirm,
    password,
    ...secondFactorProof(secondFactor),
  });
}

/** Whether the signed-in administrator's own second factor is on (their deletions then need its code). */
export function useOwnSecondFactor(till: Till) {
  return useQuery({
    queryKey: ['admin', 'own-second-factor'],
    queryFn: async () => {
      const res = await till.api.secondFactorStatus();
      return res.code === 900 && res.data.totp.enabled;
    },
  });
}
