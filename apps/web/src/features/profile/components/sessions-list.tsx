import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { sessionName } from '@/lib/user-agent';
import { revokeOtherSessions, sessionsKey, useSessions } from '../api/profile-api';

/** Where the account is signed in, with a way to sign out everywhere else. */
export function SessionsList() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const query = useSessions();
  const revoke = useMutation({
    mutationFn: () => revokeOtherSessions(till),
    onSuccess: () => void client.invalidateQueries({ queryKey: sessionsKey }),
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const others = query.data.filter((s) => !s.current).length;
  return (
    <>
      <List aria-label={t('profile.sessions')}>
        {query.data.map((s) => (
          <ListItem
            key={s.id}
            divider
            secondaryAction={s.current ? <Chip size="small" color="primary" label={t('profile.thisDevice')} /> : null}
          >
            <ListItemText
              primary={sessionName(t, s.userAgent)}
              secondary={t('profile.sessionSince', { date: formatDate(s.createdAt, i18n.language), ip: s.ip ?? '—' })}
              sx={{ pr: 10, wordBreak: 'break-word' }}
            />
          </ListItem>
        ))}
      </List>
      {revoke.isSuccess ? (
        <Alert severity="success" role="status">
          {t('profile.revoked', { count: revoke.data })}
        </Alert>
      ) : null}
      {revoke.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(revoke.error)}
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        color="warning"
        onClick={() => revoke.mutate()}
        disabled={!others || revoke.isPending}
        sx={{ mt: 1 }}
      >
        {t('profile.signOutOthers')}
      </Button>
    </>
  );
}
