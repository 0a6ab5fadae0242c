import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import type { Money } from '@till/protocol';
import { formatMoney } from '@/lib/format';

/** One line of the summary: what, how many, what it comes to, and whether the buyer owns it already. */
export interface SummaryLine {
  productId: string;
  title: string;
  quantity: number;
  amount: Money | null;
  owned?: boolean;
  /** The line's price as the app's store formats it, shown instead of `amount`. */
  price?: string;
}

/**
 * The order as it will be charged: each line with its quantity, the subtotal, the coupon's discount
 * and the total, in the buyer's language and currency format. An owned line says so and can be
 * taken out of the cart here.
 */
export function CheckoutSummary({
  lines,
  subtotal,
  discount,
  couponCode,
  total,
  onRemove,
}: {
  lines: readonly SummaryLine[];
  subtotal: Money | null;
  discount: Money | null;
  couponCode: string | null;
  total: Money | null;
  onRemove: (productId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const money = (m: Money | null) => (m ? formatMoney(m, i18n.language) : '—');
  const row = { display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 } as const;
  return (
    <Box component="section" aria-labelledby="summary-title" sx={{ mb: 2 }}>
      <Typography id="summary-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('checkout.summary.title')}
      </Typography>
      <Box component="ul" aria-label={t('checkout.summary.lines')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {lines.map((line) => (
          <Box component="li" key={line.productId} sx={{ borderBottom: 1, borderColor: 'divider', py: 0.5 }}>
            <Box sx={row}>
              <Typography sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {t('checkout.summary.line', { title: line.title, count: line.quantity })}
              </Typography>
              <Typography sx={{ whiteSpace: 'nowrap' }}>{line.price ?? money(line.amount)}</Typography>
            </Box>
            {line.owned ? (
              <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, pb: 0.5 }}>
                <Typography variant="body2" color="warning.dark" role="status">
                  {t('checkout.summary.owned', { title: line.title })}
                </Typography>
                <Button size="small" color="warning" onClick={() => onRemove(line.productId)}>
                  {t('checkout.summary.removeOwned', { title: line.title })}
                </Button>
              </Box>
            ) : null}
          </Box>
        ))}
      </Box>
      <Box component="dl" sx={{ m: 0, mt: 1, '& dt, & dd': { m: 0 } }}>
        <Box sx={row}>
          <dt>{t('checkout.summary.subtotal')}</dt>
          <dd>{money(subtotal)}</dd>
        </Box>
        {discount && discount.amount > 0 ? (
          <Box sx={{ ...row, color: 'success.dark' }}>
            <dt>
              {couponCode ? t('checkout.summary.discountCode', { code: couponCode }) : t('checkout.summary.discount')}
            </dt>
            <dd>−{money(discount)}</dd>
          </Box>
        ) : null}
        <Box sx={{ ...row, fontWeight: 700, fontSize: '1.15rem' }} data-testid="checkout-total">
          <dt>{t('checkout.summary.total')}</dt>
          <dd>{money(total)}</dd>
        </Box>
      </Box>
    </Box>
  );
}
