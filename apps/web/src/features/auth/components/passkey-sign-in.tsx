import KeyIcon from '@mui/icons-material/Key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import type { User } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { isApiError } from '@/lib/api-error';
import { useTill } from '@/lib/till';
import { isCancelled, webauthn } from '@/lib/webauthn';
import { signInWithPasskey } from '../api/passkey-sign-in';

/**
 * "Sign in with a passkey", under the password form: no e-mail needed, the browser offers the
 * passkeys it has for this site. Not shown where the browser cannot use passkeys.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: () => signInWithPasskey(till),
    onSuccess: (res) => onSignedIn(res.user),
  });
  if (!webauthn.supported()) return null;
  const error = mutation.error;
  return (
    <>
      <Divider sx={{ my: 2 }}>{t('passkeys.or')}</Divider>
      {mutation.isError ? (
        <Alert severity={isCancelled(error) ? 'info' : 'error'} role="alert" sx={{ mb: 1 }}>
          {isCancelled(error)
            ? t('passkeys.cancelled')
            : isApiError(error, 902)
              ? t('passkeys.signInRefused')
              : errorMessage(error)}
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        fullWidth
        startIcon={<KeyIcon />}
        onClick={() => mutation.mutate()}
        disabled={mutation.isPending}
      >
        {mutation.isPending ? t('auth.signingIn') : t('passkeys.signIn')}
      </Button>
    </>
  );
}
