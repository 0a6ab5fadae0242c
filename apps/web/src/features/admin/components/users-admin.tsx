import FlagIcon from '@mui/icons-material/Flag';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { adminCreditsAdjustRequest, type AdminUser } from '@till/protocol';
import { BatchSelect } from '@/components/batch-select';
import { DataTable } from '@/components/data-table';
import { FormTextField } from '@/components/form-text-field';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { codeOf, type ApiError } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { adjustCredits, adminKeys, loadUsers, useAdminUsers } from '../api/admin-api';
import { payloadResolver, toInt } from '../hooks/schema-form';
import { UserSecurity } from './user-security';

interface Fields {
  amount: string;
  reason: string;
}
const adjustInput = adminCreditsAdjustRequest.omit({ token: true, userId: true });

/** Credits in or out of one user's account, as a ledger entry with a reason. */
function AdjustCredits() {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const [user, setUser] = useState<AdminUser | null>(null);
  const { control, handleSubmit, reset } = useForm<Fields>({
    resolver: payloadResolver<Fields, typeof adjustInput>(
      adjustInput,
      (f) => ({ amount: toInt(f.amount) ?? undefined, reason: f.reason }),
      (path) => (path === 'reason' ? 'reason' : 'amount'),
    ),
    defaultValues: { amount: '', reason: '' },
  });
  const mutation = useMutation({
    mutationFn: (f: Fields) => {
      if (!user) throw new Error('no user chosen');
      return adjustCredits(till, user.id, toInt(f.amount) ?? 0, f.reason);
    },
    onSuccess: () => {
      reset();
      void client.invalidateQueries({ queryKey: adminKeys.users });
    },
  });
  return (
    <Box
      component="form"
      noValidate
      aria-label={t('admin.adjustCredits')}
      onSubmit={handleSubmit((f) => mutation.mutate(f))}
      sx={{ maxWidth: 480, mb: 4 }}
    >
      <Typography variant="h6" component="h2" gutterBottom>
        {t('admin.adjustCredits')}
      </Typography>
      <BatchSelect<AdminUser>
        label={t('admin.user')}
        queryKey={['admin', 'user-select']}
        loadBatch={(offset, limit, search) => loadUsers(till, offset, limit, search)}
        optionLabel={(u) => `${u.name} <${u.email}>`}
        optionKey={(u) => u.id}
        value={user}
        onChange={setUser}
      />
      <FormTextField
        control={control}
        name="amount"
        label={t('admin.amount')}
        helperText={t('admin.amountHint')}
        inputMode="numeric"
        required
      />
      <FormTextField control={control} name="reason" label={t('admin.reason')} required />
      {mutation.isSuccess ? (
        <Alert severity="success" role="status">
          {t('admin.adjusted', { balance: mutation.data.balance })}
        </Alert>
      ) : null}
      {mutation.isError ? (
        <Alert severity="error" role="alert">
          {codeOf(mutation.error) === 909
            ? t('admin.wouldGoNegative', { balance: (mutation.error as ApiError).body.balance ?? 0 })
            : errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" disabled={!user || mutation.isPending} sx={{ mt: 1 }}>
        {t('admin.applyAdjustment')}
      </Button>
    </Box>
  );
}

/**
 * A user a refund or chargeback could not take everything back from: a marker that reads as text
 * (not only a colour), with the reason and the date, under the address, which every screen size
 * shows.
 */
function FlagMarker({ user }: { user: AdminUser }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mt: 0.5, color: 'warning.dark' }}>
      <FlagIcon fontSize="small" aria-hidden />
      <Typography variant="body2" component="span">
        <strong>{t('admin.flagged')}</strong>
        {': '}
        {user.flagReason ?? t('admin.flagNoReason')}
        {user.flaggedAt ? ` (${formatDate(user.flaggedAt, i18n.language)})` : ''}
      </Typography>
    </Box>
  );
}

export function UsersAdmin() {
  const { t, i18n } = useTranslation();
  const query = useAdminUsers();
  const [security, setSecurity] = useState<AdminUser | null>(null);
  return (
    <>
      {security ? <UserSecurity user={security} onClose={() => setSecurity(null)} /> : null}
      <AdjustCredits />
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <DataTable<AdminUser>
          label={t('admin.users')}
          rows={query.data.items}
          rowKey={(u) => u.id}
          columns={[
            {
              key: 'email',
              header: t('fields.email'),
              render: (u) => (
                <>
                  <span style={{ wordBreak: 'break-all' }}>{u.email}</span>
                  {u.flaggedAt ? <FlagMarker user={u} /> : null}
                </>
              ),
            },
            { key: 'name', header: t('fields.name'), render: (u) => u.name, hideOnPhone: true },
            { key: 'level', header: t('admin.level'), render: (u) => u.level },
            { key: 'credits', header: t('admin.credits'), render: (u) => u.credits },
            {
              key: 'created',
              header: t('admin.created'),
              render: (u) => formatDate(u.createdAt, i18n.language),
              hideOnPhone: true,
            },
            {
              key: 'security',
              header: t('security.column'),
              render: (u) => (
                <Button
                  size="small"
                  onClick={() => setSecurity(u)}
                  aria-label={t('security.openFor', { email: u.email })}
                >
                  {t('security.open')}
                </Button>
              ),
            },
          ]}
        />
      ) : null}
    </>
  );
}
