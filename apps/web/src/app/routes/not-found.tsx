import Button from '@mui/material/Button';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from '@/components/page';
import { EmptyState } from '@/components/states';
import { paths } from '../paths';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('notFound.title')}>
      <EmptyState title={t('notFound.text')}>
        <Button component={RouterLink} to={paths.home.href()} variant="contained">
          {t('nav.store')}
        </Button>
      </EmptyState>
    </Page>
  );
}
