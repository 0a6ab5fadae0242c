import { PasskeyPaths } from '@till/protocol';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';

/** Deletes a user's account: `confirm` is their e-mail address, `password` the administrator's own. */
export async function deleteUser(till: Till, userId: string, confirm: string, password: string) {
  await serviceData<Record<string, never>>(till, PasskeyPaths.adminDeleteUser, { userId, confirm, password });
}
