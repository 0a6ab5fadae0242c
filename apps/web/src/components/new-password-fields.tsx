import type { Control, FieldPath } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { z } from 'zod';
import { passwordSchema } from '@till/protocol';
import { FormTextField } from './form-text-field';

/** The fields of a new password typed twice. */
export interface NewPasswordValues {
  password: string;
  repeat: string;
}

/** Schema shape of a new password typed twice; refine the object with {@link passwordsMatch}. */
export const newPasswordShape = { password: passwordSchema, repeat: z.string() };

/** The check that both copies match, with the message on the second field. */
export const passwordsMatch: [(v: NewPasswordValues) => boolean, { path: string[]; message: string }] = [
  (v) => v.password === v.repeat,
  { path: ['repeat'], message: 'validation.mismatch' },
];

/** A new password and its repetition, as the reset and the change forms ask for it. */
export function NewPasswordFields<T extends NewPasswordValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  return (
    <>
      <FormTextField
        control={control}
        name={'password' as FieldPath<T>}
        label={t('fields.newPassword')}
        type="password"
        autoComplete="new-password"
        required
      />
      <FormTextField
        control={control}
        name={'repeat' as FieldPath<T>}
        label={t('fields.repeatPassword')}
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}
