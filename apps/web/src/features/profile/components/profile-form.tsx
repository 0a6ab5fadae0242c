import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { updateInfoRequest, type User } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { LANGUAGES, setLanguage } from '@/lib/i18n';
import { meKey } from '@/lib/use-me';
import { useTill } from '@/lib/till';
import { updateProfile } from '../api/profile-api';

const schema = updateInfoRequest.pick({ name: true, lang: true }).required();
type Fields = { name: string; lang: string };
const FIELDS = ['name', 'lang'] as const;

/** Name and language; the language also switches the interface. */
export function ProfileForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const { control, handleSubmit, setError } = useForm<Fields>({
    resolver: schemaResolver(schema),
    defaultValues: { name: user.name, lang: LANGUAGES.some((l) => l.code === user.lang) ? user.lang : 'en' },
  });
  const mutation = useMutation({
    mutationFn: (v: Fields) => updateProfile(till, v),
    onSuccess: (updated) => {
      client.setQueryData(meKey, updated);
      if (updated.lang !== i18n.language) void setLanguage(i18n, updated.lang);
    },
    onError: (error) => showFieldError(error, setError, FIELDS),
  });
  return (
    <FormFrame
      label={t('profile.details')}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      error={formLevelError(mutation.error, FIELDS)}
      success={mutation.isSuccess ? t('profile.saved') : null}
    >
      <FormTextField control={control} name="name" label={t('fields.name')} autoComplete="name" required />
      <Controller
        control={control}
        name="lang"
        render={({ field }) => (
          <TextField {...field} select label={t('fields.language')} fullWidth margin="normal">
            {LANGUAGES.map((l) => (
              <MenuItem key={l.code} value={l.code} lang={l.code}>
                {l.label}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <SubmitButton pending={mutation.isPending}>{t('common.save')}</SubmitButton>
    </FormFrame>
  );
}
