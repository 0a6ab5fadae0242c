import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { z } from 'zod';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { NewPasswordFields, newPasswordShape, passwordsMatch } from '@/components/new-password-fields';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { updateProfile } from '../api/profile-api';

const schema = z
  .object({ currentPassword: z.string().min(1).max(1024), ...newPasswordShape })
  .refine(...passwordsMatch);
type Fields = z.infer<typeof schema>;
const FIELDS = ['currentPassword', 'password'] as const;

/** A new password, with the current one; every other session ends. */
export function PasswordForm() {
  const { t } = useTranslation();
  const till = useTill();
  const { control, handleSubmit, setError, reset } = useForm<Fields>({
    resolver: schemaResolver(schema),
    defaultValues: { currentPassword: '', password: '', repeat: '' },
  });
  const mutation = useMutation({
    mutationFn: ({ currentPassword, password }: Fields) => updateProfile(till, { currentPassword, password }),
    onSuccess: () => reset(),
    onError: (error) => showFieldError(error, setError, FIELDS),
  });
  const formError = formLevelError(mutation.error, FIELDS);
  return (
    <FormFrame
      label={t('profile.password')}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      error={formError}
      success={mutation.isSuccess ? t('profile.passwordChanged') : null}
    >
      <FormTextField
        control={control}
        name="currentPassword"
        label={t('fields.currentPassword')}
        type="password"
        autoComplete="current-password"
        required
      />
      <NewPasswordFields control={control} />
      <SubmitButton pending={mutation.isPending}>{t('profile.changePassword')}</SubmitButton>
    </FormFrame>
  );
}
