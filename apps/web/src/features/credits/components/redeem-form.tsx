import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { redeemCouponRequest } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
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
    <FormFrame
      label={t('credits.redeemTitle')}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      error={mutation.isError && codeOf(mutation.error) !== 908 ? mutation.error : null}
      success={
        mutation.isSuccess
          ? t('credits.redeemed', { count: mutation.data.granted.credits, balance: mutation.data.balance })
          : null
      }
      sx={{ maxWidth: 420 }}
    >
      <FormTextField control={control} name="couponCode" label={t('coupon.label')} autoComplete="off" required />
      <SubmitButton pending={mutation.isPending}>{t('credits.redeem')}</SubmitButton>
    </FormFrame>
  );
}
