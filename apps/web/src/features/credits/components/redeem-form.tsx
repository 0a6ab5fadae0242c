import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { redeemCouponRequest } from '@till/protocol';
import { FormTextField } from '@/components/form-text-field';
import { useErrorMessage } from '@/components/states';
import { ApiError, codeOf } from '@/lib/api-error';
import { schemaResolver } from '@/lib/form';
import { meKey } from '@/lib/use-me';
import { useTill } from '@/lib/till';
import { creditsKey, redeemCoupon } from '../api/credits-api';

const schema = redeemCouponRequest.pick({ couponCode: true });

/** Redeems a grant coupon (credits or products) into the account. */
export function RedeemForm() {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const { control, handleSubmit, reset, setError } = useForm<{ couponCode: string }>({
    resolver: schemaResolver(schema),
    defaultValues: { couponCode: '' },
  });
  const mutation = useMutation({
    mutationFn: ({ couponCode }: { couponCode: string }) => redeemCoupon(till, couponCode.trim().toUpperCase()),
    onSuccess: () => {
      reset();
      void client.invalidateQueries({ queryKey: creditsKey });
      void client.invalidateQueries({ queryKey: meKey });
    },
    onError: (error) => {
      if (codeOf(error) === 908) {
        const reason = error instanceof ApiError ? error.body.reason : 'unknown';
        setError(
          'couponCode',
          { type: 'server', message: `coupon.reason.${reason ?? 'unknown'}` },
          { shouldFocus: true },
        );
      }
    },
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      aria-label={t('credits.redeemTitle')}
      sx={{ maxWidth: 420 }}
    >
      {mutation.isSuccess ? (
        <Alert severity="success" role="status">
          {t('credits.redeemed', { count: mutation.data.granted.credits, balance: mutation.data.balance })}
        </Alert>
      ) : null}
      {mutation.isError && codeOf(mutation.error) !== 908 ? (
        <Alert severity="error" role="alert">
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <FormTextField control={control} name="couponCode" label={t('coupon.label')} autoComplete="off" required />
      <Button type="submit" variant="contained" disabled={mutation.isPending}>
        {t('credits.redeem')}
      </Button>
    </Box>
  );
}
