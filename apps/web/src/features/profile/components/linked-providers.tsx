import AppleIcon from '@mui/icons-material/Apple';
import GoogleIcon from '@mui/icons-material/Google';
import LoginIcon from '@mui/icons-material/Login';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { SocialProvider } from '@till/protocol';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { unwrap } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n-react';
import { connectableProviders } from '@/lib/social-providers';
import { useTill } from '@/lib/till';
import { platformKind } from '@/platform/platform';
import { securityLogKeys } from '../api/profile-api';
import {
  finishConnect,
  linkedKey,
  linkedQuery,
  providersQuery,
  startConnect,
  forgetConnectReturn,
  readConnectReturn,
} from '../api/social-api';

function ProviderIcon({ kind }: { kind: SocialProvider['kind'] }) {
  if (kind === 'google') return <GoogleIcon />;
  if (kind === 'apple') return <AppleIcon />;
  return <LoginIcon />;
}

/**
 * The providers linked to the account (Google, Apple, ...), each removable while another way to
 * sign in remains (the server refuses the last one, 912 `last_way_in`, and says why), and a
 * "Connect" button for each provider the server offers: its page is opened for this session, which
 * spends the ticket the provider's return brings back here. An account with a password proves it
 * first (the step-up dialog opens on 914).
 */
export function LinkedProviders() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const linked = useQuery(linkedQuery(till));
  const providers = useQuery(providersQuery(till));
  // The connect flow's return: in the address when the profile opens, or brought by the phone
  // app's URL scheme while it shows.
  const { hash } = useLocation();
  const back = useMemo(() => readConnectReturn(hash), [hash]);
  const nameOf = (id: string) => providers.data?.find((p) => p.id === id)?.name ?? id;
  // A link added or removed is in the security log too. Both lists are asked for as the profile
  // opens, while it spends a return's ticket: what is still on its way was read before the change
  // (the app's query client drops it, `AppQueryClient`).
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: linkedKey }),
      client.invalidateQueries({ queryKey: securityLogKeys }),
    ]);
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await till.api.social.unlink(id)),
    onSettled: refresh,
  });
  const connect = useMutation({
    mutationFn: (provider: SocialProvider) => startConnect(till, provider.id, i18n.language),
  });
  const finish = useMutation({
    mutationFn: (ticket: string) => finishConnect(till, ticket),
    onSettled: refresh,
  });
  const spent = useRef(new Set<string>());
  const { mutate: finishWith } = finish;
  useEffect(() => {
    if (!back.ticket && !back.error) return;
    forgetConnectReturn();
    // Each ticket once, also when the page renders again with the same address.
    if (back.ticket && !spent.current.has(back.ticket)) {
      spent.current.add(back.ticket);
      finishWith(back.ticket);
    }
  }, [back, finishWith]);
  if (finish.isPending) return <LoadingState label={t('social.connecting')} />;
  if (linked.isPending) return <LoadingState />;
  if (linked.isError) return <ErrorState error={linked.error} onRetry={() => void linked.refetch()} />;
  const problem = back.error === 'denied' || back.error === 'expired' ? back.error : back.error ? 'failed' : null;
  const failure = remove.error ?? connect.error ?? finish.error;
  // Linking runs the provider's web flow (the phone apps' system browser included).
  const connectable = connectableProviders(providers.data ?? [], platformKind());
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('social.profileIntro')}
      </Typography>
      {finish.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {t('social.connected', { provider: nameOf(finish.data.provider) })}
        </Alert>
      ) : null}
      {problem ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {t(`social.connectProblem.${problem}`)}
        </Alert>
      ) : null}
      {failure ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {errorMessage(failure)}
        </Alert>
      ) : null}
      {linked.data.identities.length === 0 ? (
        <EmptyState title={t('social.none')} />
      ) : (
        <List dense aria-label={t('social.profileTitle')}>
          {linked.data.identities.map((identity) => (
            <ListItem key={identity.id} divider sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                primary={
                  identity.email ? `${nameOf(identity.provider)} · ${identity.email}` : nameOf(identity.provider)
                }
                secondary={t('social.since', { created: formatDate(identity.createdAt, i18n.language) })}
                sx={{ flex: '1 1 12rem', wordBreak: 'break-word' }}
              />
              <Button
                size="small"
                color="error"
                aria-label={t('social.removeNamed', { provider: nameOf(identity.provider) })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(identity.id)}
              >
                {t('social.remove')}
              </Button>
            </ListItem>
          ))}
        </List>
      )}
      {connectable.length ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
          {connectable.map((provider) => (
            <Button
              key={provider.id}
              variant="outlined"
              startIcon={<ProviderIcon kind={provider.kind} />}
              disabled={connect.isPending}
              onClick={() => connect.mutate(provider)}
              sx={{ flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
            >
              {connect.isPending && connect.variables?.id === provider.id
                ? t('social.leaving', { provider: provider.name })
                : t('social.connect', { provider: provider.name })}
            </Button>
          ))}
        </Box>
      ) : null}
    </>
  );
}
