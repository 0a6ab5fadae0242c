import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { Product } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { useTill } from '@/lib/till';
import { getPlatform } from '@/platform/platform';
import type { Platform } from '@/platform/types';

/**
 * "Restore purchases" in the phone app (the App Store requires it): the store replays what the
 * buyer owns, the server verifies each owned transaction again (granting nothing twice), and the
 * buyer sees what came back, or that nothing did. Nothing in a browser. `products` (the catalog)
 * names what came back by title.
 */
export function RestorePurchases({ products }: { products: readonly Product[] | undefined }) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [platform, setPlatform] = useState<Platform | null>(null);
  useEffect(() => {
    let live = true;
    void getPlatform().then((p) => {
      if (live && p.inAppStore()) setPlatform(p);
    });
    return () => {
      live = false;
    };
  }, []);
  const restore = useMutation({
    mutationFn: async () => {
      if (!platform) throw new Error('The in-app store is not available');
      return platform.restoreInApp(till.store);
    },
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  if (!platform) return null;

  // The server names the products it verified by id or alias; the buyer reads their titles.
  const titleOf = (idOrAlias: string) =>
    products?.find((p) => p.id === idOrAlias || p.alias === idOrAlias)?.title ?? idOrAlias;
  const verified = restore.data?.restored.filter((r) => r.verified) ?? [];
  const titles = [...new Set(verified.flatMap((r) => r.products.map(titleOf)))];
  const refused = (restore.data?.restored.length ?? 0) - verified.length;

  return (
    <Box sx={{ mb: 2 }}>
      <Button variant="outlined" onClick={() => restore.mutate()} disabled={restore.isPending}>
        {restore.isPending ? t('orders.restore.working') : t('orders.restore.button')}
      </Button>
      {restore.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(restore.error)}
        </Alert>
      ) : null}
      {restore.data ? (
        <Alert severity={refused ? 'warning' : 'info'} role="status" sx={{ mt: 1 }}>
          {titles.length ? t('orders.restore.restored', { titles: titles.join(', ') }) : t('orders.restore.nothing')}
          {refused ? ` ${t('orders.restore.refused', { count: refused })}` : ''}
        </Alert>
      ) : null}
    </Box>
  );
}
