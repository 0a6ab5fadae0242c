import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import {
  DEFAULT_LANGUAGE,
  ProductType,
  SHOP_LANGUAGES,
  productInput,
  type AdminProduct,
  type ProductInput,
  type ProductTypeValue,
  type ShopLanguage,
} from '@till/protocol';
import { FormTextField } from '@/components/form-text-field';
import { formLevelError, parseMessage, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import { adminKeys, saveProduct } from '../api/admin-api';
import { payloadResolver, toInt, toMinor } from '../hooks/schema-form';
import { PeriodPicker } from '../period-picker';
import { ProductImageField } from './product-image-field';
import { useErrorMessage } from '@/components/states';

interface Fields {
  alias: string;
  title: string;
  description: string;
  deTitle: string;
  deDescription: string;
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
  'texts.de.title': 'deTitle',
  'texts.de.description': 'deDescription',
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
    grants: {
      ...(credits !== null ? { credits } : {}),
      // A period belongs to subscriptions only: one picked before the type changed is left out.
      ...(Number(f.type) === ProductType.Subscription && f.period.trim() ? { period: f.period.trim() } : {}),
    },
    imageUrl: f.imageUrl.trim() || null,
    active: f.active,
    texts: f.deTitle.trim() || f.deDescription.trim() ? { de: { title: f.deTitle, description: f.deDescription } } : {},
  };
}

function toFields(p: AdminProduct | null): Fields {
  return {
    alias: p?.alias ?? '',
    title: p?.title ?? '',
    description: p?.description ?? '',
    deTitle: p?.texts.de?.title ?? '',
    deDescription: p?.texts.de?.description ?? '',
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

/**
 * Creates or edits a product; the protocol's product schema checks every field. Its title and
 * description are edited per shop language (a tab each; a language left empty shows the default
 * language's texts to its buyers), its period is picked rather than typed, and its image is
 * uploaded or given as an address.
 */
export function ProductDialog({
  product,
  open,
  onClose,
  onSaved,
}: {
  product: AdminProduct | null;
  open: boolean;
  onClose: () => void;
  /** Told the product as saved, before the dialog closes. */
  onSaved?: (saved: AdminProduct) => void;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
  const id = useId();
  const [lang, setLang] = useState<ShopLanguage>(DEFAULT_LANGUAGE);
  const { control, handleSubmit, setError, formState } = useForm<Fields>({
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
    onSuccess: (saved) => {
      onSaved?.(saved);
      void client.invalidateQueries({ queryKey: adminKeys.products });
      void client.invalidateQueries({ queryKey: ['store'] });
      onClose();
    },
    onError: (error) => showFieldError(error, setError, fields, 'admin'),
  });
  const type = useWatch({ control, name: 'type' });
  const formError = formLevelError(mutation.error, fields);
  // A title missing in a hidden tab still shows: its tab is marked and opened on submit.
  const deInvalid = Boolean(formState.errors.deTitle || formState.errors.deDescription);
  const enInvalid = Boolean(formState.errors.title || formState.errors.description);
  const translate = (message: string | undefined) => {
    if (!message) return undefined;
    const { key, count } = parseMessage(message);
    return count === undefined ? t(key) : t(key, { count });
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>{product ? t('admin.editProduct') : t('admin.newProduct')}</DialogTitle>
      <form
        noValidate
        onSubmit={handleSubmit(
          (f) => mutation.mutate(f),
          (errors) => {
            if (!errors.title && !errors.description && (errors.deTitle || errors.deDescription)) setLang('de');
            else if (errors.title || errors.description) setLang('en');
          },
        )}
      >
        <DialogContent>
          {formError ? (
            <Alert severity="error" role="alert">
              {errorMessage(formError)}
            </Alert>
          ) : null}
          <FormTextField
            control={control}
            name="alias"
            label={t('admin.alias')}
            helperText={t('admin.aliasHint')}
            required
          />
          <Box sx={{ borderBottom: 1, borderColor: 'divider', mt: 2 }}>
            <Tabs
              value={lang}
              onChange={(_e, v: ShopLanguage) => setLang(v)}
              aria-label={t('admin.textsIn')}
              variant="scrollable"
            >
              {SHOP_LANGUAGES.map((l) => (
                <Tab
                  key={l}
                  value={l}
                  id={`${id}-tab-${l}`}
                  aria-controls={`${id}-panel-${l}`}
                  label={`${t(`admin.language.${l}`)}${(l === 'de' ? deInvalid : enInvalid) ? ' ⚠' : ''}`}
                />
              ))}
            </Tabs>
          </Box>
          <Box role="tabpanel" id={`${id}-panel-en`} aria-labelledby={`${id}-tab-en`} hidden={lang !== 'en'}>
            <FormTextField control={control} name="title" label={t('admin.productTitle')} required />
            <FormTextField control={control} name="description" label={t('admin.description')} multiline minRows={2} />
          </Box>
          <Box role="tabpanel" id={`${id}-panel-de`} aria-labelledby={`${id}-tab-de`} hidden={lang !== 'de'}>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('admin.translationHint')}
            </Typography>
            <FormTextField
              control={control}
              name="deTitle"
              label={t('admin.titleIn', { language: t('admin.language.de') })}
            />
            <FormTextField
              control={control}
              name="deDescription"
              label={t('admin.descriptionIn', { language: t('admin.language.de') })}
              multiline
              minRows={2}
            />
          </Box>
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
          {type === String(ProductType.Subscription) ? (
            <Controller
              control={control}
              name="period"
              render={({ field, fieldState }) => (
                <PeriodPicker
                  value={field.value}
                  onChange={field.onChange}
                  error={translate(fieldState.error?.message)}
                />
              )}
            />
          ) : null}
          <Controller
            control={control}
            name="imageUrl"
            render={({ field, fieldState }) => (
              <ProductImageField
                value={field.value}
                onChange={field.onChange}
                error={translate(fieldState.error?.message)}
              />
            )}
          />
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
