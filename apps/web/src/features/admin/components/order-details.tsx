import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { OrderStatus, type AdminOrder } from '@till/protocol';
import { OrderItemsTable } from '@/components/order-items-table';
import { formatDate, formatMoney } from '@/lib/format';
import { orderNumber } from '../order-number';

/** Where an order's refund stands, in words; null when none was asked for. */
export function useRefundState() {
  const { t, i18n } = useTranslation();
  return (o: AdminOrder): string | null => {
    const asked = o.payment.refundRequestedAt;
    if (o.status === OrderStatus.Refunded)
      return asked ? t('admin.refundConfirmed', { date: formatDate(asked, i18n.language) }) : t('admin.refundDone');
    if (asked) return t('admin.refundRequested', { date: formatDate(asked, i18n.language) });
    return null;
  };
}

/**
 * One order as an administrator needs it to answer a buyer or the provider: what was bought, the
 * coupon, every refund with its reason and who made it, the provider's own
 * references (to look the payment up in the provider's dashboard), where a refund stands, the
 * credits a refund or chargeback could not take back, and the end of a subscription; then its items
 * with their prices, as the buyer sees them.
 */
export function OrderDetailsDialog({ order, onClose }: { order: AdminOrder | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const refundState = useRefundState();
  const lang = i18n.language;
  const o = order;
  const refund = o ? refundState(o) : null;
  return (
    <Dialog open={o !== null} onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{o ? t('admin.orderDetails', { iden: orderNumber(o.iden) }) : null}</DialogTitle>
      {/* Focusable: a keyboard scrolls the details where they are taller than the screen. */}
      <DialogContent tabIndex={0}>
        {o ? (
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' },
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              '& dt': { fontWeight: 600 },
              '& dd': { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' },
            }}
          >
            <dt>{t('admin.buyer')}</dt>
            <dd>{o.email}</dd>
            <dt>{t('orders.statusLabel')}</dt>
            <dd>{t(`admin.orderStatus.${o.status}`)}</dd>
            <dt>{t('admin.coupon')}</dt>
            <dd>
              {o.couponCode
                ? o.discount.amount
                  ? t('admin.couponWithDiscount', { code: o.couponCode, amount: formatMoney(o.discount, lang) })
                  : o.couponCode
                : t('admin.noCoupon')}
            </dd>
            <dt>{t('orders.route')}</dt>
            <dd>{t(`providers.${o.provider}`, { defaultValue: o.provider })}</dd>
            <dt>{t('orders.total')}</dt>
            <dd>
              {o.provider === 'credits' ? t('store.credits', { count: o.creditsSpent }) : formatMoney(o.total, lang)}
            </dd>
            <dt>{t('orders.created')}</dt>
            <dd>{formatDate(o.createdAt, lang)}</dd>
            {o.paidAt ? (
              <>
                <dt>{t('orders.paidAt')}</dt>
                <dd>{formatDate(o.paidAt, lang)}</dd>
              </>
            ) : null}
            <dt>{t('admin.refs')}</dt>
            <dd>
              {o.payment.refs.length ? (
                <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }} aria-label={t('admin.refs')}>
                  {o.payment.refs.map((r) => (
                    <li key={`${r.kind}:${r.ref}`}>
                      {r.kind} <code>{r.ref}</code>
                    </li>
                  ))}
                </Box>
              ) : (
                t('admin.noRefs')
              )}
            </dd>
            {refund ? (
              <>
                <dt>{t('admin.refundLabel')}</dt>
                <dd>{refund}</dd>
              </>
            ) : null}
            <dt>{t('admin.refundHistory')}</dt>
            <dd>
              {o.refundHistory.length ? (
                <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }} aria-label={t('admin.refundHistory')}>
                  {o.refundHistory.map((r) => (
                    <Box component="li" key={`${r.at}:${r.amount.amount}`} sx={{ mb: 0.5 }}>
                      {t('admin.refundEntry', {
                        amount: formatMoney(r.amount, lang),
                        date: formatDate(r.at, lang),
                        by: r.by ?? t('admin.refundByUnknown'),
                      })}
                      {' · '}
                      {r.keptGrants ? t('admin.refundEntryMoneyOnly') : t('admin.refundEntryWhole')}
                      <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
                        {r.reason ? t('admin.refundEntryReason', { reason: r.reason }) : t('admin.flagNoReason')}
                      </Box>
                    </Box>
                  ))}
                </Box>
              ) : (
                t('admin.noRefunds')
              )}
            </dd>
            {o.payment.sandbox ? (
              <>
                <dt>{t('admin.sandboxOrder')}</dt>
                <dd>{t('admin.sandboxOrderText')}</dd>
              </>
            ) : null}
            {o.payment.shortfallCredits > 0 ? (
              <>
                <dt>{t('admin.shortfallLabel')}</dt>
                <dd>{t('admin.shortfall', { count: o.payment.shortfallCredits })}</dd>
              </>
            ) : null}
            {o.payment.subscriptionEndedAt ? (
              <>
                <dt>{t('admin.subscriptionEnded')}</dt>
                <dd>{formatDate(o.payment.subscriptionEndedAt, lang)}</dd>
              </>
            ) : null}
          </Box>
        ) : null}
        {o ? (
          <Box sx={{ mt: 2 }}>
            <OrderItemsTable order={o} />
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
