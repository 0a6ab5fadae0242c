import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Code, passwordSchema, type User } from '@till/protocol';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { useErrorMessage } from '@/components/states';
import { SubmitButton } from '@/components/submit-button';
import { isApiError } from '@/lib/api-error';
import { formLevelError, schemaResolver } from '@/lib/form';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { linkByMail, linkWithPassword } from '../api/social';
import { SecondFactorForm, type PendingChallenge } from './second-factor-form';

/** How a social sign-in ended: signed in, or an answer that asks for more (913, 915) or refuses. */
export type SocialOutcome = { kind: 'signedIn'; user: User } | { kind: 'failed'; error: unknown };

const passwordForm = z.object({ password: passwordSchema });

/**
 * 915: the provider's address has an account that is not linked to it. The owner proves the
 * account with its password (which also signs in), or asks for a link by mail.
 */
function LinkRequired({
  link,
  email,
  provider,
  onSignedIn,
  onSecondFactor,
}: {
  link: string;
  email: string;
  provider: string;
  onSignedIn: (user: User) => void;
  onSecondFactor: (pending: PendingChallenge) => void;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const [mailed, setMailed] = useState(false);
  const { control, handleSubmit } = useForm<{ password: string }>({
    resolver: schemaResolver(passwordForm),
    defaultValues: { password: '' },
  });
  const withPassword = useMutation({
    mutationFn: (password: string) => linkWithPassword(till, link, password),
    onSuccess: (res) => onSignedIn(res.user),
    onError: (error) => {
      if (isApiError(error, Code.SecondFactorRequired)) {
        const { challenge = '', expire = 0 } = error.body;
        onSecondFactor({ challenge, expiresAt: Date.now() + expire * 1000 });
      }
    },
  });
  const byMail = useMutation({ mutationFn: () => linkByMail(till, link), onSuccess: () => setMailed(true) });
  if (mailed) {
    return (
      <Alert severity="success" role="status">
        {t('social.linkMailed', { email, provider })}
      </Alert>
    );
  }
  const passwordError = isApiError(withPassword.error, Code.SecondFactorRequired)
    ? null
    : formLevelError(withPassword.error, ['password']);
  return (
    <Stack spacing={2}>
      <Typography>{t('social.linkIntro', { email, provider })}</Typography>
      <FormFrame
        label={t('social.linkWithPassword')}
        onSubmit={handleSubmit((v) => withPassword.mutate(v.password))}
        error={passwordError}
      >
        <FormTextField
          control={control}
          name="password"
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          required
        />
        <SubmitButton pending={withPassword.isPending} wide>
          {t('social.linkWithPassword')}
        </SubmitButton>
      </FormFrame>
      <Typography variant="body2">{t('social.noPassword')}</Typography>
      {byMail.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(byMail.error)}
        </Alert>
      ) : null}
      <Button variant="outlined" onClick={() => byMail.mutate()} disabled={byMail.isPending}>
        {byMail.isPending ? t('social.sending') : t('social.linkByMail')}
      </Button>
    </Stack>
  );
}

/** What a social sign-in's answer asks of the person next, or why it failed. */
export function SocialOutcomeView({
  error,
  onSignedIn,
  onRestart,
}: {
  error: unknown;
  onSignedIn: (user: User) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [pending, setPending] = useState<PendingChallenge | null>(() => {
    if (!isApiError(error, Code.SecondFactorRequired)) return null;
    const { challenge = '', expire = 0 } = error.body;
    return { challenge, expiresAt: Date.now() + expire * 1000 };
  });
  if (pending) return <SecondFactorForm pending={pending} onSignedIn={onSignedIn} onRestart={onRestart} />;
  if (isApiError(error, Code.LinkRequired)) {
    const body = error.body as { link?: string; email?: string; provider?: string };
    return (
      <LinkRequired
        link={body.link ?? ''}
        email={body.email ?? ''}
        provider={body.provider ?? ''}
        onSignedIn={onSignedIn}
        onSecondFactor={setPending}
      />
    );
  }
  return (
    <Stack spacing={2}>
      <Alert severity="error" role="alert">
        {isApiError(error, Code.BadLinkToken)
          ? t('social.expired')
          : // 902 here is a provider's token that did not verify, not a wrong password.
            isApiError(error, Code.WrongCredentials)
            ? t('social.problem.failed')
            : errorMessage(error)}
      </Alert>
      <Button variant="outlined" onClick={onRestart}>
        {t('social.tryAgain')}
      </Button>
    </Stack>
  );
}
