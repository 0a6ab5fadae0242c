import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import type { Coupon } from '@till/protocol';
import { formatMoney } from '@/lib/format';

/** A coupon's effect in words. */
export function useCouponText() {
  const { t, i18n } = useTranslation();
  return (coupon: Coupon): string => {
    if (coupon.kind === 'grant') return t('coupon.grants', { count: coupon.grantCredits ?? 0 });
    if (coupon.percentOff) return t('coupon.percentOff', { percent: coupon.percentOff });
    if (coupon.amountOff) return t('coupon.amountOff', { amount: formatMoney(coupon.amountOff, i18n.language) });
    return t('coupon.valid');
  };
}

/** A coupon's line: what it does, or why not and what to do, with the way there when it is elsewhere. */
export interface CouponLine {
  text: string;
  tone: 'ok' | 'error' | 'info';
  link?: { to: string; label: string };
}

export function CouponStatus({ text, tone, link }: CouponLine) {
  return (
    <Typography
      variant="body2"
      role="status"
      aria-live="polite"
      color={tone === 'ok' ? 'success.main' : tone === 'error' ? 'error.main' : 'text.secondary'}
    >
      {text}
      {link ? (
        <>
          {' '}
          <Link component={RouterLink} to={link.to}>
            {link.label}
          </Link>
        </>
      ) : null}
    </Typography>
  );
}
