import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { AdminCoupon } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatMoney } from '@/lib/format';
import { useTill } from '@/lib/till';
import { adminKeys, setCouponActive, useAdminCoupons } from '../api/admin-api';
import { CouponDialog } from './coupon-dialog';

/**
 * Coupons with their use counts; new ones one by one or as a batch of codes; each editable, and
 * switched off (buyers are told it is no longer valid) or on again.
 */
export function CouponsAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
  const [search, setSearch] = useState('');
  const [find, setFind] = useState('');
  const query = useAdminCoupons(find);
  const [saved, setSaved] = useState<{ code: string; created: boolean } | null>(null);
  const [dialog, setDialog] = useState<'one' | 'bulk' | null>(null);
  const [editing, setEditing] = useState<AdminCoupon | null>(null);
  const toggle = useMutation({
    mutationFn: (c: AdminCoupon) => setCouponActive(till, c.code, !c.active),
    onSuccess: () => void client.invalidateQueries({ queryKey: adminKeys.coupons }),
  });
  const effect = (c: AdminCoupon) =>
    c.kind === 'grant'
      ? t('coupon.grants', { count: c.grantCredits ?? 0 })
      : c.percentOff
        ? t('coupon.percentOff', { percent: c.percentOff })
        : t('coupon.amountOff', { amount: formatMoney(c.amountOff ?? null, i18n.language) });
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="contained"
          onClick={() => {
            setSaved(null);
            setDialog('one');
          }}
        >
          {t('admin.newCoupon')}
        </Button>
        <Button variant="outlined" onClick={() => setDialog('bulk')}>
          {t('admin.bulkCodes')}
        </Button>
      </Stack>
      <Box
        component="form"
        role="search"
        aria-label={t('admin.couponSearchLabel')}
        onSubmit={(e) => {
          e.preventDefault();
          setFind(search.trim());
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mb: 2 }}
      >
        <TextField
          type="search"
          label={t('admin.couponSearch')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value.trim()) setFind('');
          }}
          slotProps={{ htmlInput: { maxLength: 64 } }}
          sx={{ flex: '1 1 200px' }}
        />
        <Button type="submit" variant="outlined" sx={{ mt: 1 }}>
          {t('admin.search')}
        </Button>
      </Box>
      {saved ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setSaved(null)}>
          {t(saved.created ? 'admin.couponCreated' : 'admin.couponSaved', { code: saved.code })}
        </Alert>
      ) : null}
      {toggle.isError ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(toggle.error)}
        </Alert>
      ) : null}
      {toggle.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {t(toggle.data.active ? 'admin.couponOn' : 'admin.couponOff', { code: toggle.data.code })}
        </Alert>
      ) : null}
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.data.coupons.length ? (
        <EmptyState title={find ? t('admin.noCouponsFound', { query: find }) : t('admin.noCoupons')} />
      ) : null}
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
              hideOnPhone: true,
            },
            { key: 'batch', header: t('admin.batch'), render: (c) => c.batch ?? '', hideOnPhone: true },
            {
              key: 'active',
              header: t('admin.couponState'),
              render: (c) => (
                <Chip
                  size="small"
                  label={c.active ? t('admin.couponActive') : t('admin.couponInactive')}
                  color={c.active ? 'success' : 'default'}
                />
              ),
            },
            {
              key: 'actions',
              header: t('admin.actions'),
              render: (c) => (
                <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: 'flex-start' }}>
                  <Button
                    onClick={() => {
                      setSaved(null);
                      setEditing(c);
                    }}
                    aria-label={t('admin.editNamed', { name: c.code })}
                  >
                    {t('admin.edit')}
                  </Button>
                  <Button
                    color={c.active ? 'warning' : 'primary'}
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate(c)}
                    aria-label={t(c.active ? 'admin.deactivateNamed' : 'admin.reactivateNamed', {
                      code: c.code,
                    })}
                  >
                    {c.active ? t('admin.deactivate') : t('admin.reactivate')}
                  </Button>
                </Stack>
              ),
            },
          ]}
        />
      ) : null}
      {dialog ? (
        <CouponDialog
          bulk={dialog === 'bulk'}
          open
          onClose={() => setDialog(null)}
          onSaved={(code) => setSaved({ code, created: true })}
        />
      ) : null}
      {editing ? (
        <CouponDialog
          key={editing.code}
          bulk={false}
          open
          coupon={editing}
          onClose={() => setEditing(null)}
          onSaved={(code) => setSaved({ code, created: false })}
        />
      ) : null}
    </>
  );
}
