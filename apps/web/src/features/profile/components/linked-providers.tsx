import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { unwrap } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n-react';
import { useTill, type Till } from '@/lib/till';

const linkedKey = ['social', 'linked'] as const;
const linkedQuery = (till: Till) =>
  queryOptions({ queryKey: linkedKey, queryFn: async () => unwrap(await till.api.social.list()).data });

/**
 * The providers linked to the account (Google, Apple, ...), each removable while another way to
 * sign in remains: the server refuses the last one (912 `last_way_in`) and says why.
 */
export function LinkedProviders() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const linked = useQuery(linkedQuery(till));
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await till.api.social.unlink(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: linkedKey }),
  });
  if (linked.isPending) return <LoadingState />;
  if (linked.isError) return <ErrorState error={linked.error} onRetry={() => void linked.refetch()} />;
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('social.profileIntro')}
      </Typography>
      {remove.isError ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {errorMessage(remove.error)}
        </Alert>
      ) : null}
      {linked.data.identities.length === 0 ? (
        <EmptyState title={t('social.none')} />
      ) : (
        <List dense>
          {linked.data.identities.map((identity) => (
            <ListItem
              key={identity.id}
              secondaryAction={
                <Button
                  size="small"
                  color="error"
                  aria-label={t('social.removeNamed', { provider: identity.provider })}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(identity.id)}
                >
                  {t('social.remove')}
                </Button>
              }
            >
              <ListItemText
                primary={identity.email ? `${identity.provider} · ${identity.email}` : identity.provider}
                secondary={t('social.since', { created: formatDate(identity.createdAt, i18n.language) })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
