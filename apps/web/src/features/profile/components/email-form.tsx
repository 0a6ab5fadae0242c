import Alert from '@mui/material/Alert';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { z } from 'zod';
import { emailSchema, type User } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { meKey } from '@/lib/use-me';
import { useTill } from '@/lib/till';
import { updateProfile } from '../api/profile-api';

const schema = z.object({ email: emailSchema, currentPassword: z.string().min(1).max(1024) });
type Fields = z.infer<typeof schema>;
const FIELDS = ['email', 'currentPassword'] as const;

/** A new e-mail address: it applies once the link mailed to it is followed. */
export function EmailForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<Fields>({
    resolver: schemaResolver(schema),
    defaultValues: { email: '', currentPassword: '' },
  });
  const mutation = useMutation({
    mutationFn: (v: Fields) => updateProfile(till, v),
    onSuccess: (updated) => {
      client.setQueryData(meKey, updated);
      reset();
    },
    onError: (error) => showFieldError(error, setError, FIELDS),
  });
  const formError = formLevelError(mutation.error, FIELDS);
  return (
    <FormFrame
      label={t('profile.email')}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      error={formError}
      success={mutation.isSuccess ? t('profile.emailSent') : null}
      intro={
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('profile.currentEmail', { email: user.email })}
          {user.pendingEmail ? ` ${t('profile.pendingEmail', { email: user.pendingEmail })}` : ''}
        </Alert>
      }
    >
      <FormTextField
        control={control}
        name="email"
        label={t('fields.newEmail')}
        type="email"
        autoComplete="email"
        required
      />
      <FormTextField
        control={control}
        name="currentPassword"
        label={t('fields.currentPassword')}
        type="password"
        autoComplete="current-password"
        required
      />
      <SubmitButton pending={mutation.isPending}>{t('profile.changeEmail')}</SubmitButton>
    </FormFrame>
  );
}
