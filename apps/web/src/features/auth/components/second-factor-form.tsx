import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { z } from 'zod';
import { Code, recoveryCodeSchema, totpCodeSchema, type User } from '@till/protocol';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { SubmitButton } from '@/components/submit-button';
import { isApiError } from '@/lib/api-error';
import { schemaResolver } from '@/lib/form';
import { useTill } from '@/lib/till';
import { signInSecondFactor } from '../api/auth-api';

/** What a 913 answer hands the second step: the challenge and when it runs out (epoch ms). */
export interface PendingChallenge {
  challenge: string;
  expiresAt: number;
}

const codeForm = z.object({ value: totpCodeSchema });
const recoveryForm = z.object({ value: recoveryCodeSchema });
type Fields = { value: string };

/**
 * The second step of a sign-in: a code from the authenticator app, or one of the recovery codes. A
 * wrong code can be tried again; a challenge that ran out (or was used) sends the person back to the
 * password step.
 */
export function SecondFactorForm({
  pending,
  onSignedIn,
  onRestart,
  now = Date.now,
}: {
  pending: PendingChallenge;
  onSignedIn: (user: User) => void;
  onRestart: () => void;
  now?: () => number;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const [recovery, setRecovery] = useState(false);
  const [expired, setExpired] = useState(() => now() >= pending.expiresAt);
  const { control, handleSubmit, setError, reset } = useForm<Fields>({
    resolver: schemaResolver(recovery ? recoveryForm : codeForm),
    defaultValues: { value: '' },
  });
  useEffect(() => {
    const left = pending.expiresAt - now();
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setExpired(true), left);
    return () => clearTimeout(timer);
  }, [pending.expiresAt, now]);
  const mutation = useMutation({
    mutationFn: ({ value }: Fields) =>
      signInSecondFactor(till, {
        challenge: pending.challenge,
        ...(recovery ? { recoveryCode: value } : { code: value }),
      }),
    onSuccess: (res) => onSignedIn(res.user),
    onError: (error) => {
      if (isApiError(error, Code.BadLinkToken)) setExpired(true);
      else if (isApiError(error, Code.WrongCredentials))
        setError('value', { type: 'server', message: recovery ? 'security.wrongRecoveryCode' : 'security.wrongCode' });
    },
  });
  const formError =
    mutation.error &&
    !isApiError(mutation.error, Code.WrongCredentials) &&
    !isApiError(mutation.error, Code.BadLinkToken)
      ? mutation.error
      : null;

  if (expired) {
    return (
      <Box>
        <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
          {t('security.challengeExpired')}
        </Alert>
        <Button variant="contained" fullWidth size="large" onClick={onRestart}>
          {t('security.signInAgain')}
        </Button>
      </Box>
    );
  }
  return (
    <FormFrame
      label={t('security.secondStep')}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      error={formError}
      intro={<Typography sx={{ mb: 1 }}>{recovery ? t('security.recoveryIntro') : t('security.codeIntro')}</Typography>}
    >
      {recovery ? (
        <FormTextField
          key="recovery"
          control={control}
          name="value"
          label={t('security.recoveryCode')}
          autoComplete="off"
          autoFocus
          required
        />
      ) : (
        <FormTextField
          key="code"
          control={control}
          name="value"
          label={t('security.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
          required
        />
      )}
      <SubmitButton pending={mutation.isPending} wide>
        {mutation.isPending ? t('auth.signingIn') : t('security.verify')}
      </SubmitButton>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Button
          onClick={() => {
            setRecovery(!recovery);
            reset({ value: '' });
            mutation.reset();
          }}
        >
          {recovery ? t('security.useCode') : t('security.useRecoveryCode')}
        </Button>
        <Button onClick={onRestart}>{t('common.cancel')}</Button>
      </Box>
    </FormFrame>
  );
}
