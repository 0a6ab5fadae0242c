import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { parseMessage } from '@/lib/form';

/**
 * A text field bound to react-hook-form. Errors carry a translation key (`validation.*`, set by the
 * zod resolver mapping or by a server 907) and are shown under the field.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<T>; name: FieldPath<T> } & Omit<TextFieldProps, 'name'>) {
  const { t } = useTranslation();
  const translate = (message: string) => {
    const { key, count } = parseMessage(message);
    return count === undefined ? t(key) : t(key, { count });
  };
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          value={field.value ?? ''}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ? translate(fieldState.error.message) : props.helperText}
          fullWidth
          margin="normal"
        />
      )}
    />
  );
}
