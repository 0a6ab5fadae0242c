import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import { z } from 'zod';
import { Code } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { NewPasswordFields, newPasswordShape, passwordsMatch } from '@/components/new-password-fields';
import { isApiError } from '@/lib/api-error';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { resetPassword } from '../api/auth-api';

const schema = z.object(newPasswordShape).refine(...passwordsMatch);
type ResetFields = z.infer<typeof schema>;

/**
 * A new password through a mailed link; the link works once, for an hour. A link that no longer
 * works says why and leads to asking for a new one (`newLinkHref`).
 */
export function ResetForm({
  resetToken,
  onDone,
  newLinkHref,
}: {
  resetToken: string;
  onDone: () => void;
  newLinkHref: string;
}) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const { control, handleSubmit, setError } = useForm<ResetFields>({
    resolver: schemaResolver(schema),
    defaultValues: { password: '', repeat: '' },
  });
  const mutation = useMutation({
    mutationFn: ({ password }: ResetFields) => resetPassword(till, resetToken, password, i18n.language),
    onSuccess: onDone,
    onError: (error) => showFieldError(error, setError, ['password']),
  });
  const formError = formLevelError(mutation.error, ['password']);
  if (isApiError(mutation.error, Code.BadLinkToken)) {
    return (
      <Box>
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('auth.resetBadLink')}
        </Alert>
        <Button variant="contained" component={RouterLink} to={newLinkHref}>
          {t('auth.newLink')}
        </Button>
      </Box>
    );
  }
  return (
    <FormFrame label={t('auth.resetTitle')} onSubmit={handleSubmit((v) => mutation.mutate(v))} error={formError}>
      <NewPasswordFields control={control} />
      <SubmitButton pending={mutation.isPending} wide>
        {t('auth.setPassword')}
      </SubmitButton>
    </FormFrame>
  );
}
