import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCoupon } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatMoney } from '@/lib/format';
import { useAdminCoupons } from '../api/admin-api';
import { CouponDialog } from './coupon-dialog';

/** Coupons with their use counts; new ones one by one or as a batch of codes. */
export function CouponsAdmin() {
  const { t, i18n } = useTranslation();
  const query = useAdminCoupons();
  const [dialog, setDialog] = useState<'one' | 'bulk' | null>(null);
  const effect = (c: AdminCoupon) =>
    c.kind === 'grant'
      ? t('coupon.grants', { count: c.grantCredits ?? 0 })
      : c.percentOff
        ? t('coupon.percentOff', { percent: c.percentOff })
        : t('coupon.amountOff', { amount: formatMoney(c.amountOff ?? null, i18n.language) });
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" onClick={() => setDialog('one')}>
          {t('admin.newCoupon')}
        </Button>
        <Button variant="outlined" onClick={() => setDialog('bulk')}>
          {t('admin.bulkCodes')}
        </Button>
      </Stack>
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.data.coupons.length ? <EmptyState title={t('admin.noCoupons')} /> : null}
      {query.data?.coupons.length ? (
        <DataTable<AdminCoupon>
          label={t('admin.coupons')}
          rows={query.data.coupons}
          rowKey={(c) => c.code}
          columns={[
            { key: 'code', header: t('admin.code'), render: (c) => c.code },
            { key: 'effect', header: t('admin.effect'), render: effect },
            {
              key: 'used',
              header: t('admin.used'),
              render: (c) => `${c.used}${c.usageLimit ? ` / ${c.usageLimit}` : ''}`,
            },
            { key: 'batch', header: t('admin.batch'), render: (c) => c.batch ?? '', hideOnPhone: true },
          ]}
        />
      ) : null}
      {dialog ? <CouponDialog bulk={dialog === 'bulk'} open onClose={() => setDialog(null)} /> : null}
    </>
  );
}
