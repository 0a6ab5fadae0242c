import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from '@/lib/i18n-react';
import { useSearchParams } from 'react-router-dom';
import { Level } from '@till/protocol';
import { Page } from '@/components/page';
import { CouponsAdmin } from '@/features/admin/components/coupons-admin';
import { OrdersAdmin } from '@/features/admin/components/orders-admin';
import { ProductsAdmin } from '@/features/admin/components/products-admin';
import { UsersAdmin } from '@/features/admin/components/users-admin';
import { BackupsAdmin } from '@/features/backups/components/backups-admin';
import { RequireAuth } from '../require-auth';

const TABS = ['products', 'coupons', 'users', 'orders', 'backups'] as const;
type AdminTab = (typeof TABS)[number];

export function AdminRoute() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: AdminTab = TABS.find((x) => x === params.get('tab')) ?? 'products';
  return (
    <RequireAuth level={Level.Admin}>
      <Page title={t('admin.title')}>
        <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
          <Tabs
            value={tab}
            onChange={(_e, v: AdminTab) => setParams({ tab: v })}
            variant="scrollable"
            allowScrollButtonsMobile
            aria-label={t('admin.title')}
          >
            {TABS.map((x) => (
              <Tab key={x} value={x} label={t(`admin.${x}`)} id={`admin-tab-${x}`} aria-controls={`admin-panel-${x}`} />
            ))}
          </Tabs>
        </Box>
        <Box role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
          {tab === 'products' ? <ProductsAdmin /> : null}
          {tab === 'coupons' ? <CouponsAdmin /> : null}
          {tab === 'users' ? <UsersAdmin /> : null}
          {tab === 'orders' ? <OrdersAdmin /> : null}
          {tab === 'backups' ? <BackupsAdmin /> : null}
        </Box>
      </Page>
    </RequireAuth>
  );
}
