import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { adminCouponsBulkRequest, couponInput, type AdminCoupon, type CouponInput } from '@till/protocol';
import { FormTextField } from '@/components/form-text-field';
import { useSaveFile } from '@/components/saved-file';
import { useTill } from '@/lib/till';
import { adminKeys, bulkCoupons, saveCoupon } from '../api/admin-api';
import { payloadResolver, toInt, toMinor } from '../hooks/schema-form';
import { useErrorMessage } from '@/components/states';
import { formLevelError, showFieldError } from '@/lib/form';

interface Fields {
  code: string;
  count: string;
  prefix: string;
  kind: 'discount' | 'grant';
  percentOff: string;
  amountOff: string;
  currency: string;
  grantCredits: string;
  usageLimit: string;
  perUserLimit: string;
  startsAt: string;
  endsAt: string;
}

const empty: Fields = {
  code: '',
  count: '10',
  prefix: '',
  kind: 'discount',
  percentOff: '',
  amountOff: '',
  currency: 'USD',
  grantCredits: '',
  usageLimit: '',
  perUserLimit: '',
  startsAt: '',
  endsAt: '',
};

const day = (d: string, end = false) => (d ? `${d}T${end ? '23:59:59' : '00:00:00'}Z` : null);

function template(f: Fields) {
  const amount = toMinor(f.amountOff);
  const discount = f.kind === 'discount';
  return {
    kind: f.kind,
    percentOff: discount ? toInt(f.percentOff) : null,
    amountOff: discount && amount !== null ? { amount, currency: f.currency.trim().toUpperCase() } : null,
    grantCredits: discount ? null : toInt(f.grantCredits),
    startsAt: day(f.startsAt),
    endsAt: day(f.endsAt, true),
  };
}

/** The form's fields of a coupon being edited (dates as days, money in major units). */
export function couponFields(c: AdminCoupon): Fields {
  const amount = c.amountOff;
  return {
    ...empty,
    code: c.code,
    kind: c.kind,
    percentOff: c.percentOff != null ? String(c.percentOff) : '',
    amountOff: amount ? (amount.amount / 100).toFixed(2) : '',
    currency: amount?.currency ?? 'USD',
    grantCredits: c.grantCredits != null ? String(c.grantCredits) : '',
    usageLimit: c.usageLimit != null ? String(c.usageLimit) : '',
    perUserLimit: c.perUserLimit != null ? String(c.perUserLimit) : '',
    startsAt: c.startsAt ? c.startsAt.slice(0, 10) : '',
    endsAt: c.endsAt ? c.endsAt.slice(0, 10) : '',
  };
}

/**
 * The coupon to save. Editing keeps what the form does not show (the products it applies to or
 * grants, its minimum total, whether it is on): saving replaces the whole coupon.
 */
function toCoupon(f: Fields, editing?: AdminCoupon | null): CouponInput {
  const kept = editing
    ? {
        appliesTo: editing.appliesTo,
        minTotal: editing.minTotal,
        active: editing.active,
        ...(f.kind === 'grant' && editing.grantProducts?.length ? { grantProducts: editing.grantProducts } : {}),
      }
    : {};
  return {
    ...kept,
    code: f.code.trim(),
    ...template(f),
    usageLimit: toInt(f.usageLimit),
    perUserLimit: toInt(f.perUserLimit),
  };
}

function toBulk(f: Fields) {
  return { count: toInt(f.count) ?? 0, prefix: f.prefix.trim(), coupon: template(f) };
}

// Issue paths are `percentOff`, `amountOff.amount`, `coupon.grantCredits`...: the first name is the box.
const fieldOf = (path: string): keyof Fields => {
  const first = path.replace(/^coupon\./, '').split('.')[0] ?? '';
  return (first in empty ? first : 'code') as keyof Fields;
};
// The SDK adds the token; the form checks the rest of the request.
const bulkRequest = adminCouponsBulkRequest.omit({ token: true });

/** A new coupon, an existing one to edit (`coupon`), or a batch of single-use codes from one template (`bulk`). */
export function CouponDialog({
  bulk,
  open,
  onClose,
  onSaved,
  coupon = null,
}: {
  bulk: boolean;
  open: boolean;
  onClose: () => void;
  /** Told the code of a coupon saved one by one, before the dialog closes (a batch shows its own codes). */
  onSaved?: (code: string) => void;
  coupon?: AdminCoupon | null;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
  const id = useId();
  const { save, notice } = useSaveFile();
  const { control, handleSubmit, setError } = useForm<Fields>({
    resolver: bulk
      ? payloadResolver<Fields, typeof bulkRequest>(bulkRequest, toBulk, fieldOf)
      : payloadResolver<Fields, typeof couponInput>(couponInput, (f) => toCoupon(f, coupon), fieldOf),
    defaultValues: coupon ? couponFields(coupon) : empty,
  });
  const kind = useWatch({ control, name: 'kind' });
  const fields = Object.keys(empty);
  const mutation = useMutation({
    mutationFn: async (f: Fields) => {
      if (!bulk) {
        const saved = await saveCoupon(till, toCoupon(f, coupon));
        onSaved?.(saved.code);
        return null;
      }
      const b = toBulk(f);
      return bulkCoupons(till, b.count, b.prefix, b.coupon);
    },
    onSuccess: (batch) => {
      void client.invalidateQueries({ queryKey: adminKeys.coupons });
      if (!batch) onClose();
    },
    onError: (error) => showFieldError(error, setError, fields, 'admin'),
  });
  const batch = mutation.data;
  const formError = formLevelError(mutation.error, fields);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>
        {bulk ? t('admin.bulkCodes') : coupon ? t('admin.editCoupon', { code: coupon.code }) : t('admin.newCoupon')}
      </DialogTitle>
      {batch ? (
        <>
          <DialogContent>
            <Alert severity="success" role="status">
              {t('admin.bulkDone', { count: batch.codes.length, batch: batch.batch })}
            </Alert>
            <Box
              component="pre"
              sx={{ maxHeight: 240, overflow: 'auto', bgcolor: 'grey.100', p: 1, mt: 2 }}
              data-testid="bulk-codes"
            >
              {batch.codes.join('\n')}
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => save(`coupons-${batch.batch}.txt`, { text: batch.codes.join('\n') })}>
              {t('admin.downloadCodes')}
            </Button>
            <Button variant="contained" onClick={onClose}>
              {t('common.close')}
            </Button>
          </DialogActions>
          {notice}
        </>
      ) : (
        <form noValidate onSubmit={handleSubmit((f) => mutation.mutate(f))}>
          <DialogContent>
            {formError ? (
              <Alert severity="error" role="alert">
                {errorMessage(formError)}
              </Alert>
            ) : null}
            {bulk ? (
              <>
                <Typography variant="body2">{t('admin.bulkText')}</Typography>
                <FormTextField control={control} name="count" label={t('admin.count')} inputMode="numeric" required />
                <FormTextField control={control} name="prefix" label={t('admin.prefix')} />
              </>
            ) : (
              <FormTextField
                control={control}
                name="code"
                label={t('admin.code')}
                required
                helperText={coupon ? t('admin.codeFixed') : undefined}
                slotProps={coupon ? { htmlInput: { readOnly: true } } : undefined}
              />
            )}
            <FormTextField control={control} name="kind" label={t('admin.kind')} select>
              <MenuItem value="discount">{t('admin.kinds.discount')}</MenuItem>
              <MenuItem value="grant">{t('admin.kinds.grant')}</MenuItem>
            </FormTextField>
            {kind === 'discount' ? (
              <>
                <FormTextField control={control} name="percentOff" label={t('admin.percentOff')} inputMode="numeric" />
                <FormTextField control={control} name="amountOff" label={t('admin.amountOff')} inputMode="decimal" />
              </>
            ) : (
              <FormTextField
                control={control}
                name="grantCredits"
                label={t('admin.grantCredits')}
                inputMode="numeric"
              />
            )}
            {bulk ? null : (
              <>
                <FormTextField control={control} name="usageLimit" label={t('admin.usageLimit')} inputMode="numeric" />
                <FormTextField
                  control={control}
                  name="perUserLimit"
                  label={t('admin.perUserLimit')}
                  inputMode="numeric"
                />
              </>
            )}
            <FormTextField
              control={control}
              name="startsAt"
              label={t('admin.startsAt')}
              type="date"
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormTextField
              control={control}
              name="endsAt"
              label={t('admin.endsAt')}
              type="date"
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={mutation.isPending}>
              {bulk ? t('admin.makeCodes') : t('common.save')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
