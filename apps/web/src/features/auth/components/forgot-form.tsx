import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { genResetLinkRequest } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { requestResetLink } from '../api/auth-api';
import { ResetLinkSent } from './mail-sent';

const schema = genResetLinkRequest.omit({ lang: true });

/** Asks for a reset link; the answer is the same whether the address is known or not. */
export function ForgotForm({ signInHref }: { signInHref: string }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const { control, handleSubmit, setError } = useForm<{ email: string }>({
    resolver: schemaResolver(schema),
    defaultValues: { email: '' },
  });
  const mutation = useMutation({
    mutationFn: ({ email }: { email: string }) => requestResetLink(till, { email, lang: i18n.language }),
    onError: (error) => showFieldError(error, setError, ['email']),
  });
  if (mutation.isSuccess) return <ResetLinkSent email={mutation.variables.email} signInHref={signInHref} />;
  const formError = formLevelError(mutation.error, ['email']);
  return (
    <FormFrame label={t('auth.forgotTitle')} onSubmit={handleSubmit((v) => mutation.mutate(v))} error={formError}>
      <FormTextField
        control={control}
        name="email"
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        required
      />
      <SubmitButton pending={mutation.isPending} wide>
        {t('auth.sendResetLink')}
      </SubmitButton>
    </FormFrame>
  );
}
