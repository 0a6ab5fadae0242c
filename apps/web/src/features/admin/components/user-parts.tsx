import FlagIcon from '@mui/icons-material/Flag';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { adminCreditsAdjustRequest, type AdminUser } from '@till/protocol';
import { BatchSelect } from '@/components/batch-select';
import { FormTextField } from '@/components/form-text-field';
import { codeOf, type ApiError } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { adjustCredits, adminKeys, loadUsers } from '../api/admin-api';
import { payloadResolver, toInt } from '../hooks/schema-form';
import { useErrorMessage } from '@/components/states';

interface Fields {
  amount: string;
  reason: string;
}
const adjustInput = adminCreditsAdjustRequest.omit({ token: true, userId: true });

/** Credits in or out of one user's account (`fixed`, or one chosen here), as a ledger entry with a reason. */
export function AdjustCredits({ fixed }: { fixed?: AdminUser }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
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
      const target = fixed ?? user;
      if (!target) throw new Error('no user chosen');
      return adjustCredits(till, target.id, toInt(f.amount) ?? 0, f.reason);
    },
    onSuccess: () => {
      reset();
      void client.invalidateQueries({ queryKey: adminKeys.users });
      if (fixed) void client.invalidateQueries({ queryKey: adminKeys.user(fixed.id) });
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
      {fixed ? null : (
        <BatchSelect<AdminUser>
          label={t('admin.user')}
          queryKey={['admin', 'user-select']}
          loadBatch={(offset, limit, search) => loadUsers(till, offset, limit, search)}
          optionLabel={(u) => `${u.name} <${u.email}>`}
          optionKey={(u) => u.id}
          value={user}
          onChange={setUser}
        />
      )}
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
      <Button type="submit" variant="contained" disabled={!(fixed ?? user) || mutation.isPending} sx={{ mt: 1 }}>
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
export function FlagMarker({ user }: { user: AdminUser }) {
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

/** A level by its name (Administrator, Member...), never its number. */
export function LevelName({ level }: { level: number }) {
  const { t } = useTranslation();
  return <>{t(`admin.levels.${level}`, { defaultValue: t('admin.levels.other', { level }) })}</>;
}
