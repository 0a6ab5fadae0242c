import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { AdminOrder } from '@till/protocol';
import { formatMoney } from '@/lib/format';
import { toMinor } from '../hooks/schema-form';
import { orderNumber } from '../order-number';

/** What the administrator chose: the whole order, or an amount of money only. */
export type RefundChoice = { kind: 'whole'; reason: string } | { kind: 'money'; amount: number; reason: string };

/** Money not yet given back of an order, in minor units. */
export function refundable(order: AdminOrder): number {
  return Math.max(0, order.total.amount - order.payment.refundedAmount);
}

/**
 * Asks how to refund a paid order: the whole order (its money back and what it granted taken
 * back), or money only, all or part of what is left, the buyer keeping what the order granted.
 * The amount is checked here (more than nothing, at most what is left; on a card payment less
 * than all of it, since the provider would then take the grants back too) and again by the server.
 */
export function RefundDialog({
  order,
  busy,
  onConfirm,
  onClose,
}: {
  order: AdminOrder | null;
  busy: boolean;
  onConfirm: (choice: RefundChoice) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<'whole' | 'money'>('whole');
  // Null until the administrator types: then the box shows all that can go back.
  const [amountText, setAmountText] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  if (!order) return null;
  const left = refundable(order);
  const currency = order.total.currency;
  const money = (amount: number) => formatMoney({ amount, currency }, i18n.language);
  const providerRefunds = order.provider === 'card';
  const max = providerRefunds ? left - 1 : left;
  const text = amountText ?? (max > 0 ? (max / 100).toFixed(2) : '');
  const amount = toMinor(text);
  const amountError =
    kind !== 'money'
      ? null
      : amount === null || Number.isNaN(amount) || amount < 1
        ? t('admin.refundAmountRequired')
        : amount > max
          ? providerRefunds
            ? t('admin.refundAmountCard', { max: money(max) })
            : t('admin.refundAmountTooHigh', { max: money(max) })
          : null;
  const close = () => {
    setKind('whole');
    setAmountText(null);
    setReason('');
    setTouched(false);
    onClose();
  };
  return (
    <Dialog open onClose={close} aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-t`}>{t('admin.refundTitle')}</DialogTitle>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (kind === 'whole') onConfirm({ kind, reason: reason.trim() });
          else if (!amountError && amount !== null) onConfirm({ kind, amount, reason: reason.trim() });
        }}
      >
        <DialogContent>
          {/* The text says what the chosen refund does: money only takes nothing back. */}
          <DialogContentText id={`${id}-d`} aria-live="polite">
            {kind === 'money'
              ? t('admin.refundMoneyText', {
                  iden: orderNumber(order.iden),
                  email: order.email,
                  amount: amount !== null && !Number.isNaN(amount) && amount > 0 ? money(amount) : money(max),
                })
              : t(providerRefunds ? 'admin.refundTextProvider' : 'admin.refundText', {
                  iden: orderNumber(order.iden),
                  email: order.email,
                })}
          </DialogContentText>
          {order.payment.refundedAmount ? (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('admin.refundedBefore', { amount: money(order.payment.refundedAmount), left: money(left) })}
            </Alert>
          ) : null}
          <FormControl sx={{ mt: 2 }}>
            <FormLabel id={`${id}-kind`}>{t('admin.refundKind')}</FormLabel>
            <RadioGroup
              aria-labelledby={`${id}-kind`}
              value={kind}
              onChange={(e) => setKind(e.target.value as 'whole' | 'money')}
            >
              <FormControlLabel
                value="whole"
                control={<Radio />}
                label={t('admin.refundWhole', { amount: money(left) })}
              />
              <FormControlLabel value="money" control={<Radio />} disabled={max < 1} label={t('admin.refundMoney')} />
            </RadioGroup>
          </FormControl>
          {kind === 'money' ? (
            <TextField
              label={t('admin.refundAmount', { currency })}
              value={text}
              onChange={(e) => setAmountText(e.target.value)}
              inputMode="decimal"
              fullWidth
              margin="normal"
              required
              error={touched && Boolean(amountError)}
              helperText={touched && amountError ? amountError : t('admin.refundAmountHint', { max: money(max) })}
            />
          ) : null}
          <TextField
            label={t('admin.refundReason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            fullWidth
            margin="normal"
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={busy}>
            {t('admin.refund')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
