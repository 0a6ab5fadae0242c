import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import { redeemCouponRequest } from '@till/protocol';
import { SubmitButton } from '@/components/submit-button';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { ApiError, codeOf, messageKeys } from '@/lib/api-error';
import { schemaResolver } from '@/lib/form';
import { meKey } from '@/lib/use-me';
import { useTill } from '@/lib/till';
import { creditsKey, redeemCoupon } from '../api/credits-api';

const schema = redeemCouponRequest.pick({ couponCode: true });

/**
 * Redeems a grant coupon (credits or products) into the account. A discount code is not redeemed:
 * the form says so and leads to the checkout with it (`checkoutHref`).
 */
export function RedeemForm({
  initialCode = '',
  checkoutHref,
}: {
  /** A code to fill in (one brought from the checkout). */
  initialCode?: string;
  checkoutHref: (code: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const { control, handleSubmit, reset, setError } = useForm<{ couponCode: string }>({
    resolver: schemaResolver(schema),
    defaultValues: { couponCode: initialCode.trim().toUpperCase() },
  });
  const mutation = useMutation({
    mutationFn: ({ couponCode }: { couponCode: string }) => redeemCoupon(till, couponCode.trim().toUpperCase()),
    onSuccess: () => {
      reset();
      void client.invalidateQueries({ queryKey: creditsKey });
      void client.invalidateQueries({ queryKey: meKey });
    },
    onError: (error) => {
      // A refused coupon's text is the failure's own (`reasons.908.<reason>`), shown on the field.
      if (codeOf(error) === 908) {
        const key = messageKeys(error).find((k) => i18n.exists(k)) ?? 'errors.908';
        setError('couponCode', { type: 'server', message: key }, { shouldFocus: true });
      }
    },
  });
  // A discount code given here: the way to the checkout, where it is used.
  const discount =
    mutation.error instanceof ApiError && mutation.error.body.reason === 'discount_coupon'
      ? (mutation.variables?.couponCode.trim().toUpperCase() ?? null)
      : null;
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
      {discount ? (
        <Typography variant="body2" sx={{ mb: 1 }}>
          <Link component={RouterLink} to={checkoutHref(discount)}>
            {t('coupon.useAtCheckout', { code: discount })}
          </Link>
        </Typography>
      ) : null}
      <SubmitButton pending={mutation.isPending}>{t('credits.redeem')}</SubmitButton>
    </FormFrame>
  );
}
