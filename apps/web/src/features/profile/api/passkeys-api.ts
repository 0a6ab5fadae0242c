import { useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { secondFactorProof } from '@/lib/second-factor-proof';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';
import { webauthn } from '@/lib/webauthn';

export const passkeysKey = ['me', 'passkeys'] as const;

export function usePasskeys() {
  const till = useTill();
  return useQuery({
    queryKey: passkeysKey,
    queryFn: async () => unwrap(await till.api.passkeys.list()).data.passkeys,
  });
}

/** Options from the server, the authenticator's new passkey, and the server keeping it under `name`. */
export async function addPasskey(till: Till, name: string) {
  const options = unwrap(await till.api.passkeys.registrationOptions()).data.options;
  const credential = await webauthn.create(options);
  return unwrap(await till.api.passkeys.register(name, credential)).data.passkey;
}

export async function renamePasskey(till: Till, id: string, name: string) {
  return unwrap(await till.api.passkeys.rename(id, name)).data.passkey;
}

export async function removePasskey(till: Till, id: string) {
  unwrap(await till.api.passkeys.remove(id));
}

/** Deletes the account, proven by the password or, when `password` is null, by a passkey asked for now. */
export async function deleteAccount(till: Till, confirm: string, password: string | null, secondFactor = '') {
  if (password !== null) {
    return unwrap(await till.api.deleteAccount({ confirm, password, ...secondFactorProof(secondFactor) }));
  }
  const options = unwrap(await till.api.passkeys.confirmOptions()).data.options;
  const passkey = await webauthn.get(options);
  return unwrap(await till.api.deleteAccount({ confirm, passkey }));
}
