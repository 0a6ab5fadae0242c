import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { Code, loginRequest, type LoginRequest, type User } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { isApiError } from '@/lib/api-error';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { signIn } from '../api/auth-api';
import { SecondFactorForm, type PendingChallenge } from './second-factor-form';

const FIELDS = ['email', 'password'] as const;

/**
 * E-mail and password; on success the SDK holds the session and replays calls that waited for it.
 * An account with a second factor answers 913 with a challenge: the form then asks for the code.
 */
export function LoginForm({ onSignedIn, autoFocus }: { onSignedIn: (user: User) => void; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const till = useTill();
  const [pending, setPending] = useState<PendingChallenge | null>(null);
  const { control, handleSubmit, setError } = useForm<LoginRequest>({
    resolver: schemaResolver(loginRequest),
    defaultValues: { email: '', password: '' },
  });
  const mutation = useMutation({
    mutationFn: (input: LoginRequest) => signIn(till, input),
    onSuccess: (res) => onSignedIn(res.user),
    onError: (error) => {
      if (isApiError(error, Code.SecondFactorRequired)) {
        const { challenge = '', expire = 0 } = error.body;
        setPending({ challenge, expiresAt: Date.now() + expire * 1000 });
        return;
      }
      showFieldError(error, setError, FIELDS);
    },
  });
  const formError = isApiError(mutation.error, Code.SecondFactorRequired)
    ? null
    : formLevelError(mutation.error, FIELDS);

  if (pending) {
    return (
      <SecondFactorForm
        pending={pending}
        onSignedIn={onSignedIn}
        onRestart={() => {
          setPending(null);
          mutation.reset();
        }}
      />
    );
  }

  return (
    <FormFrame label={t('auth.signIn')} onSubmit={handleSubmit((v) => mutation.mutate(v))} error={formError}>
      <FormTextField
        control={control}
        name="email"
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        autoFocus={autoFocus}
        required
      />
      <FormTextField
        control={control}
        name="password"
        label={t('fields.password')}
        type="password"
        autoComplete="current-password"
        required
      />
      <SubmitButton pending={mutation.isPending} wide>
        {mutation.isPending ? t('auth.signingIn') : t('auth.signIn')}
      </SubmitButton>
    </FormFrame>
  );
}
