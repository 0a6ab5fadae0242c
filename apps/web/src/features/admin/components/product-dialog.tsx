import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ProductType, productInput, type Product, type ProductInput, type ProductTypeValue } from '@till/protocol';
import { FormTextField } from '@/components/form-text-field';
import { useErrorMessage } from '@/components/states';
import { formLevelError, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { adminKeys, saveProduct } from '../api/admin-api';
import { payloadResolver, toInt, toMinor } from '../hooks/schema-form';

interface Fields {
  alias: string;
  title: string;
  description: string;
  type: string;
  price: string;
  currency: string;
  creditPrice: string;
  grantCredits: string;
  period: string;
  imageUrl: string;
  active: boolean;
}

const FIELD_OF: Record<string, keyof Fields> = {
  'price.amount': 'price',
  'price.currency': 'currency',
  price: 'price',
  'grants.credits': 'grantCredits',
  'grants.period': 'period',
};

function toInput(f: Fields, id?: string): ProductInput {
  const amount = toMinor(f.price);
  const credits = toInt(f.grantCredits);
  return {
    ...(id ? { id } : {}),
    alias: f.alias.trim(),
    title: f.title,
    description: f.description,
    type: Number(f.type) as ProductTypeValue,
    price: amount === null ? null : { amount, currency: f.currency.trim().toUpperCase() },
    creditPrice: toInt(f.creditPrice),
    grants: { ...(credits !== null ? { credits } : {}), ...(f.period.trim() ? { period: f.period.trim() } : {}) },
    imageUrl: f.imageUrl.trim() || null,
    active: f.active,
  };
}

function toFields(p: Product | null): Fields {
  return {
    alias: p?.alias ?? '',
    title: p?.title ?? '',
    description: p?.description ?? '',
    type: String(p?.type ?? ProductType.Consumable),
    price: p?.price ? (p.price.amount / 100).toFixed(2) : '',
    currency: p?.price?.currency ?? 'USD',
    creditPrice: p?.creditPrice != null ? String(p.creditPrice) : '',
    grantCredits: p?.grants.credits != null ? String(p.grants.credits) : '',
    period: p?.grants.period ?? '',
    imageUrl: p?.imageUrl ?? '',
    active: p?.active ?? true,
  };
}

/** Creates or edits a product; the protocol's product schema checks every field. */
export function ProductDialog({
  product,
  open,
  onClose,
}: {
  product: Product | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const id = useId();
  const { control, handleSubmit, setError } = useForm<Fields>({
    resolver: payloadResolver<Fields, typeof productInput>(
      productInput,
      (f) => toInput(f, product?.id),
      (path) => FIELD_OF[path] ?? (path as keyof Fields),
    ),
    values: toFields(product),
  });
  const fields = Object.keys(toFields(null));
  const mutation = useMutation({
    mutationFn: (f: Fields) => saveProduct(till, toInput(f, product?.id)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.products });
      void client.invalidateQueries({ queryKey: ['store'] });
      onClose();
    },
    onError: (error) => showFieldError(error, setError, fields),
  });
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>{product ? t('admin.editProduct') : t('admin.newProduct')}</DialogTitle>
      <form noValidate onSubmit={handleSubmit((f) => mutation.mutate(f))}>
        <DialogContent>
          {formLevelError(mutation.error, fields) ? (
            <Alert severity="error" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          ) : null}
          <FormTextField
            control={control}
            name="alias"
            label={t('admin.alias')}
            helperText={t('admin.aliasHint')}
            required
          />
          <FormTextField control={control} name="title" label={t('admin.productTitle')} required />
          <FormTextField control={control} name="description" label={t('admin.description')} multiline minRows={2} />
          <FormTextField control={control} name="type" label={t('admin.type')} select>
            {Object.values(ProductType).map((n) => (
              <MenuItem key={n} value={String(n)}>
                {t(`store.type.${n}`)}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField control={control} name="price" label={t('admin.price')} inputMode="decimal" />
          <FormTextField control={control} name="currency" label={t('admin.currency')} />
          <FormTextField control={control} name="creditPrice" label={t('admin.creditPrice')} inputMode="numeric" />
          <FormTextField control={control} name="grantCredits" label={t('admin.grantCredits')} inputMode="numeric" />
          <FormTextField control={control} name="period" label={t('admin.period')} helperText={t('admin.periodHint')} />
          <FormTextField control={control} name="imageUrl" label={t('admin.imageUrl')} type="url" />
          <Controller
            control={control}
            name="active"
            render={({ field }) => (
              <FormControlLabel
                control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={t('admin.active')}
              />
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
