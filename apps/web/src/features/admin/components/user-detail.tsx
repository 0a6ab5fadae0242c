import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Level, type AdminOrder, type AdminUser } from '@till/protocol';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatBytes, formatDate, formatMoney } from '@/lib/format';
import { useSession, useTill } from '@/lib/till';
import { sessionName } from '@/lib/user-agent';
import {
  adminKeys,
  clearUserFlag,
  setUserLevel,
  useAdminUser,
  useUserCredits,
  useUserFiles,
  useUserOrders,
} from '../api/admin-api';
import { orderNumber } from '../order-number';
import { OrderDetailsDialog } from './order-details';
import { AdjustCredits, FlagMarker, LevelName } from './user-parts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A list that is a list of rows on every screen: a phone shows each row whole, no sideways scroll. */
function Rows({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper variant="outlined">
      <List dense aria-label={label} disablePadding>
        {children}
      </List>
    </Paper>
  );
}

/** Who may have what: make a member an administrator or back, with a question first. */
function LevelControl({ user, fixed }: { user: AdminUser; fixed: boolean }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const session = useSession();
  const errorMessage = useErrorMessage('admin');
  const id = useId();
  const [asking, setAsking] = useState(false);
  const target = user.level >= Level.Admin ? 2 : 9;
  const mutation = useMutation({
    mutationFn: () => setUserLevel(till, user.id, target),
    onSuccess: () => {
      setAsking(false);
      void client.invalidateQueries({ queryKey: adminKeys.user(user.id) });
      void client.invalidateQueries({ queryKey: adminKeys.users });
    },
  });
  if (session.user?.id === user.id) return <Typography variant="body2">{t('admin.levelSelf')}</Typography>;
  if (fixed) return <Typography variant="body2">{t('admin.levelFixed')}</Typography>;
  if (!user.emailConfirmed) return <Typography variant="body2">{t('admin.levelUnconfirmed')}</Typography>;
  return (
    <>
      <Button variant="outlined" color={target === 9 ? 'primary' : 'warning'} onClick={() => setAsking(true)}>
        {target === 9 ? t('admin.makeAdmin') : t('admin.makeMember')}
      </Button>
      {mutation.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mt: 1 }}>
          {t('admin.levelChanged', { email: user.email })}
        </Alert>
      ) : null}
      {mutation.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`}>
        <DialogTitle id={`${id}-t`}>
          {target === 9 ? t('admin.makeAdminTitle') : t('admin.makeMemberTitle')}
        </DialogTitle>
        <DialogContent>
          {/* Long addresses wrap: nothing in the question scrolls sideways on a phone. */}
          <DialogContentText id={`${id}-d`} sx={{ overflowWrap: 'anywhere' }}>
            {t(target === 9 ? 'admin.makeAdminText' : 'admin.makeMemberText', { email: user.email })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{t('common.cancel')}</Button>
          <Button
            onClick={() => mutation.mutate()}
            color={target === 9 ? 'primary' : 'error'}
            variant="contained"
            disabled={mutation.isPending}
          >
            {target === 9 ? t('admin.makeAdmin') : t('admin.makeMember')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** One user as administrators look after them: account, level, flag, orders, credits, files, sessions. */
export function UserDetail({ userId, onBack }: { userId: string; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
  const lang = i18n.language;
  const detail = useAdminUser(userId);
  const orders = useUserOrders(userId);
  const credits = useUserCredits(userId);
  const files = useUserFiles(userId);
  const [showing, setShowing] = useState<AdminOrder | null>(null);
  const unflag = useMutation({
    mutationFn: () => clearUserFlag(till, userId),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.user(userId) });
      void client.invalidateQueries({ queryKey: adminKeys.users });
    },
  });
  const back = (
    <Button startIcon={<ArrowBackIcon />} onClick={onBack} sx={{ mb: 1 }}>
      {t('admin.backToUsers')}
    </Button>
  );
  if (detail.isPending)
    return (
      <>
        {back}
        <LoadingState />
      </>
    );
  if (detail.isError)
    return (
      <>
        {back}
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      </>
    );
  const { user, sessions, levelFixed } = detail.data;
  return (
    <Box>
      {back}
      <Typography variant="h5" component="h2" sx={{ overflowWrap: 'anywhere' }}>
        {user.name || user.email}
      </Typography>
      <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
        {user.email}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ my: 1, flexWrap: 'wrap', gap: 1 }}>
        <Chip label={<LevelName level={user.level} />} color={user.level >= Level.Admin ? 'primary' : 'default'} />
        <Chip label={user.emailConfirmed ? t('admin.confirmed') : t('admin.unconfirmed')} variant="outlined" />
        <Chip label={t('admin.balance', { count: user.credits })} variant="outlined" />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t('admin.registeredOn', { date: formatDate(user.createdAt, lang) })}
      </Typography>

      <Section title={t('admin.levelSection')}>
        <LevelControl user={user} fixed={levelFixed} />
      </Section>

      <Section title={t('admin.flags')}>
        {user.flaggedAt ? (
          <>
            <FlagMarker user={user} />
            <Button sx={{ mt: 1 }} onClick={() => unflag.mutate()} disabled={unflag.isPending}>
              {t('admin.clearFlag')}
            </Button>
            {unflag.isError ? (
              <Alert severity="error" role="alert">
                {errorMessage(unflag.error)}
              </Alert>
            ) : null}
          </>
        ) : (
          <Typography variant="body2">{t('admin.noFlags')}</Typography>
        )}
      </Section>

      <Section title={t('admin.orders')}>
        {orders.isPending ? <LoadingState /> : null}
        {orders.isError ? <ErrorState error={orders.error} onRetry={() => void orders.refetch()} /> : null}
        {orders.data && !orders.data.orders.length ? <EmptyState title={t('admin.noOrders')} /> : null}
        {orders.data?.orders.length ? (
          <Rows label={t('admin.orders')}>
            {orders.data.orders.map((o) => (
              <ListItem key={o.iden} divider disablePadding>
                <ListItemButton onClick={() => setShowing(o)} aria-haspopup="dialog">
                  <ListItemText
                    primary={`${orderNumber(o.iden)} · ${o.items
                      .map((i) => (i.quantity > 1 ? `${i.title} × ${i.quantity}` : i.title))
                      .join(', ')}`}
                    secondary={`${formatDate(o.createdAt, lang)} · ${t(`admin.status.${o.status}`)} · ${
                      o.total.amount || !o.creditsSpent
                        ? formatMoney(o.total, lang)
                        : t('admin.creditsAmount', { count: o.creditsSpent })
                    }${
                      o.payment.refundedAmount
                        ? ` · ${t('admin.refundedSoFar', { amount: formatMoney({ amount: o.payment.refundedAmount, currency: o.total.currency }, lang) })}`
                        : ''
                    }`}
                    slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </Rows>
        ) : null}
        <OrderDetailsDialog order={showing} onClose={() => setShowing(null)} />
        {orders.data && orders.data.total > orders.data.orders.length ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('admin.moreOrders', { count: orders.data.total - orders.data.orders.length })}
          </Typography>
        ) : null}
      </Section>

      <Section title={t('admin.creditsSection')}>
        {credits.isPending ? <LoadingState /> : null}
        {credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
        {credits.data ? (
          <Typography variant="body1" sx={{ mb: 1 }}>
            {t('admin.balance', { count: credits.data.balance })}
          </Typography>
        ) : null}
        {credits.data && !credits.data.entries.length ? <EmptyState title={t('admin.noLedger')} /> : null}
        {credits.data?.entries.length ? (
          <Rows label={t('admin.creditsSection')}>
            {credits.data.entries.map((e) => (
              <ListItem key={e.id} divider>
                <ListItemText
                  primary={`${e.amount > 0 ? '+' : '−'}${Math.abs(e.amount)} · ${t(`admin.ledger.${e.reason}`, { defaultValue: e.reason })}`}
                  secondary={`${formatDate(e.createdAt, lang)} · ${t('admin.balanceAfter', { count: e.balanceAfter })}${
                    e.reference
                      ? ` · ${e.reason === 'coupon' || e.reason === 'adjustment' ? e.reference : orderNumber(e.reference)}`
                      : ''
                  }`}
                  slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </Rows>
        ) : null}
        <Box sx={{ mt: 2 }}>
          <AdjustCredits fixed={user} />
        </Box>
      </Section>

      <Section title={t('admin.filesSection')}>
        {files.isPending ? <LoadingState /> : null}
        {files.isError ? <ErrorState error={files.error} onRetry={() => void files.refetch()} /> : null}
        {files.data && !files.data.files.length ? <EmptyState title={t('admin.noFiles')} /> : null}
        {files.data?.files.length ? (
          <Rows label={t('admin.filesSection')}>
            {files.data.files.map((f) => (
              <ListItem key={f.id} divider>
                <ListItemText
                  primary={
                    <Link href={f.url} target="_blank" rel="noopener" sx={{ overflowWrap: 'anywhere' }}>
                      {f.name}
                    </Link>
                  }
                  secondary={`${formatBytes(f.size, lang)} · ${formatDate(f.createdAt, lang)}`}
                />
              </ListItem>
            ))}
          </Rows>
        ) : null}
      </Section>

      <Section title={t('admin.sessionsSection')}>
        {!sessions.length ? <EmptyState title={t('admin.noSessions')} /> : null}
        {sessions.length ? (
          <Rows label={t('admin.sessionsSection')}>
            {sessions.map((s) => (
              <ListItem key={s.id} divider>
                <ListItemText
                  primary={sessionName(t, s.userAgent)}
                  secondary={`${t('admin.lastSeen', { date: formatDate(s.lastSeenAt ?? s.createdAt, lang) })}${
                    s.ip ? ` · ${s.ip}` : ''
                  }`}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </Rows>
        ) : null}
      </Section>
    </Box>
  );
}
