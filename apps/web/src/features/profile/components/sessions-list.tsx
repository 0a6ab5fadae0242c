import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@till/protocol';
import { useTranslation } from '@/lib/i18n-react';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatAgo, formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { sessionName } from '@/lib/user-agent';
import { endSession, revokeOtherSessions, sessionsKey, useSessions } from '../api/profile-api';

/**
 * Where the account is signed in, each named as a person says it ("Chrome 131 on Android, last used
 * 2 hours ago"), with its sign-in time and address so that two sessions of one browser are told
 * apart, and this device marked. Any other session can be ended alone, or all of them at once.
 */
export function SessionsList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const query = useSessions();
  const revoke = useMutation({
    mutationFn: () => revokeOtherSessions(till),
    onSuccess: () => void client.invalidateQueries({ queryKey: sessionsKey }),
  });
  const end = useMutation({
    mutationFn: (s: SessionInfo) => endSession(till, s.id),
    // Gone or not, the list is read again: a session already ended elsewhere leaves it too.
    onSettled: () => void client.invalidateQueries({ queryKey: sessionsKey }),
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const others = query.data.filter((s) => !s.current).length;
  const signedIn = (s: SessionInfo) => formatDate(s.createdAt, lang);
  return (
    <>
      <List aria-label={t('profile.sessions')}>
        {query.data.map((s) => (
          <ListItem key={s.id} divider sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
            <ListItemText
              primary={t('profile.sessionUsed', {
                name: sessionName(t, s.userAgent),
                ago: formatAgo(s.lastSeenAt ?? s.createdAt, lang),
              })}
              secondary={t('profile.sessionSince', { date: signedIn(s), ip: s.ip ?? '—' })}
              sx={{ flex: '1 1 220px', m: 0, wordBreak: 'break-word' }}
            />
            <Box sx={{ flex: '0 0 auto', ml: 'auto' }}>
              {s.current ? (
                <Chip size="small" color="primary" label={t('profile.thisDevice')} />
              ) : (
                <Button
                  size="small"
                  color="warning"
                  variant="outlined"
                  disabled={end.isPending}
                  onClick={() => end.mutate(s)}
                  aria-label={t('profile.endSessionNamed', { name: sessionName(t, s.userAgent), date: signedIn(s) })}
                >
                  {t('profile.endSession')}
                </Button>
              )}
            </Box>
          </ListItem>
        ))}
      </List>
      {end.isSuccess ? (
        <Alert severity="success" role="status">
          {t('profile.sessionEnded', { name: sessionName(t, end.variables.userAgent) })}
        </Alert>
      ) : null}
      {end.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(end.error)}
        </Alert>
      ) : null}
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
