import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import { useSearchParams } from 'react-router-dom';
import { Page } from '@/components/page';
import { CreditsOverview } from '@/features/credits/components/credits-overview';
import { RedeemForm } from '@/features/credits/components/redeem-form';
import { paths } from '../paths';
import { RequireAuth } from '../require-auth';

export function CreditsRoute() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  return (
    <RequireAuth>
      <Page title={t('credits.title')}>
        <Typography variant="h6" component="h2">
          {t('credits.redeemTitle')}
        </Typography>
        <RedeemForm initialCode={search.get('code') ?? ''} checkoutHref={(code) => paths.checkout.href(code)} />
        <Typography variant="h6" component="h2" sx={{ mt: 4 }}>
          {t('credits.balanceTitle')}
        </Typography>
        <CreditsOverview />
      </Page>
    </RequireAuth>
  );
}
