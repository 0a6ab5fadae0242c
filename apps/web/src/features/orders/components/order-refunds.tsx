import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import type { Order, OrderRefund } from '@till/protocol';
import { formatDate, formatMoney } from '@/lib/format';

/** One refund in words: what came back and when, then what was taken back (or that it was money only). */
export function useRefundWords() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (order: Order, refund: OrderRefund): { back: string; what: string } => {
    const money = refund.amount.amount > 0 ? formatMoney(refund.amount, lang) : null;
    const credits = refund.credits > 0 ? t('store.credits', { count: refund.credits }) : null;
    const amount =
      money && credits
        ? t('orderRefunds.amountAndCredits', { amount: money, credits })
        : (money ?? credits ?? formatMoney(refund.amount, lang));
    const items = order.items.map((i) => (i.quantity > 1 ? `${i.quantity} × ${i.title}` : i.title)).join(', ');
    return {
      back: t('orderRefunds.back', { amount, date: formatDate(refund.at, lang) }),
      what: refund.grantsTakenBack ? t('orderRefunds.takenBack', { items }) : t('orderRefunds.moneyOnly'),
    };
  };
}

/**
 * An order's refunds, oldest first: each one's amount, date and what was taken back. Nothing for
 * an order without refunds. `dense` is the order list's row, the order page has a titled section.
 */
export function OrderRefunds({ order, dense = false }: { order: Order; dense?: boolean }) {
  const { t } = useTranslation();
  const words = useRefundWords();
  const refunds = order.refunds ?? [];
  if (!refunds.length) return null;
  if (dense)
    return (
      <>
        {refunds.map((r, i) => {
          const { back, what } = words(order, r);
          return (
            <Typography key={`${r.at}-${i}`} variant="body2" color="text.secondary">
              {back}. {what}.
            </Typography>
          );
        })}
      </>
    );
  return (
    <Box component="section" aria-labelledby={`refunds-${order.iden}`} sx={{ mb: 2 }}>
      <Typography id={`refunds-${order.iden}`} variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('orderRefunds.title')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {refunds.map((r, i) => {
          const { back, what } = words(order, r);
          return (
            <li key={`${r.at}-${i}`}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {back}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {what}
              </Typography>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
