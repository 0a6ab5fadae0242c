import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';
import { webauthn } from '@/lib/webauthn';

/** Signs in with a passkey alone: the browser offers the site's passkeys, the server checks the chosen one. */
export async function signInWithPasskey(till: Till) {
  const options = unwrap(await till.api.passkeys.signInOptions()).data.options;
  const credential = await webauthn.get(options);
  return unwrap(await till.api.passkeys.signIn(credential));
}
