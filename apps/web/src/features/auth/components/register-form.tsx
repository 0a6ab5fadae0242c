import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { registerRequest, type RegisterRequest, type User } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { register } from '../api/auth-api';

const FIELDS = ['email', 'password', 'name'] as const;
type RegisterFields = Omit<RegisterRequest, 'lang'>;
const registerFields = registerRequest.omit({ lang: true });

/** New account; the server's 907 answers (taken, weak, ...) land on the field they name. */
export function RegisterForm({ onRegistered }: { onRegistered: (user: User) => void }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const { control, handleSubmit, setError } = useForm<RegisterFields>({
    resolver: schemaResolver(registerFields),
    defaultValues: { name: '', email: '', password: '' },
  });
  const mutation = useMutation({
    mutationFn: (input: RegisterFields) => register(till, { ...input, lang: i18n.language }),
    onSuccess: (res) => onRegistered(res.user),
    onError: (error) => showFieldError(error, setError, FIELDS),
  });
  const formError = formLevelError(mutation.error, FIELDS);

  return (
    <FormFrame label={t('auth.register')} onSubmit={handleSubmit((v) => mutation.mutate(v))} error={formError}>
      <FormTextField control={control} name="name" label={t('fields.name')} autoComplete="name" required />
      <FormTextField
        control={control}
        name="email"
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        required
      />
      <FormTextField
        control={control}
        name="password"
        label={t('fields.password')}
        type="password"
        autoComplete="new-password"
        helperText={t('auth.passwordHint')}
        required
      />
      <SubmitButton pending={mutation.isPending} wide>
        {mutation.isPending ? t('auth.registering') : t('auth.createAccount')}
      </SubmitButton>
    </FormFrame>
  );
}
