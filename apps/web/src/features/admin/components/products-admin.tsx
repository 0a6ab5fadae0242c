import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { AdminProduct } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatMoney } from '@/lib/format';
import { useAdminProducts } from '../api/admin-api';
import { ProductDialog } from './product-dialog';

/** Every product, inactive ones too, with create and edit. */
export function ProductsAdmin() {
  const { t, i18n } = useTranslation();
  const query = useAdminProducts();
  const [editing, setEditing] = useState<AdminProduct | null>(null);
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<{ title: string; created: boolean } | null>(null);
  const edit = (p: AdminProduct | null) => {
    setEditing(p);
    setSaved(null);
    setOpen(true);
  };
  return (
    <>
      <Button variant="contained" onClick={() => edit(null)} sx={{ mb: 2 }}>
        {t('admin.newProduct')}
      </Button>
      {saved ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setSaved(null)}>
          {t(saved.created ? 'admin.productCreated' : 'admin.productSaved', { title: saved.title })}
        </Alert>
      ) : null}
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.data.length ? <EmptyState title={t('store.empty')} /> : null}
      {query.data?.length ? (
        <DataTable<AdminProduct>
          label={t('admin.products')}
          rows={query.data}
          rowKey={(p) => p.id}
          columns={[
            { key: 'title', header: t('admin.productTitle'), render: (p) => p.title },
            { key: 'alias', header: t('admin.alias'), render: (p) => p.alias, hideOnPhone: true },
            { key: 'type', header: t('admin.type'), render: (p) => t(`store.type.${p.type}`), hideOnPhone: true },
            {
              key: 'texts',
              header: t('admin.language.de'),
              render: (p) => (p.texts.de?.title ? p.texts.de.title : t('admin.notTranslated')),
              hideOnPhone: true,
            },
            {
              key: 'price',
              header: t('admin.price'),
              render: (p) =>
                [
                  p.price ? formatMoney(p.price, i18n.language) : '',
                  p.creditPrice ? t('store.credits', { count: p.creditPrice }) : '',
                ]
                  .filter(Boolean)
                  .join(' / '),
            },
            {
              key: 'active',
              header: t('admin.active'),
              hideOnPhone: true,
              render: (p) => (
                <Chip
                  size="small"
                  label={p.active ? t('admin.yes') : t('admin.no')}
                  color={p.active ? 'success' : 'default'}
                />
              ),
            },
            {
              key: 'edit',
              header: t('admin.actions'),
              render: (p) => (
                <Button onClick={() => edit(p)} aria-label={t('admin.editNamed', { name: p.title })}>
                  {t('admin.edit')}
                </Button>
              ),
            },
          ]}
        />
      ) : null}
      {open ? (
        <ProductDialog
          product={editing}
          open={open}
          onClose={() => setOpen(false)}
          onSaved={(p) => setSaved({ title: p.title, created: !editing })}
        />
      ) : null}
    </>
  );
}
