import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/page';
import { OrderList } from '@/features/orders/components/order-list';
import { OrderView } from '@/features/orders/components/order-view';
import { RequireAuth } from '../require-auth';
import { paths } from '../paths';

export function OrderRoute() {
  const { t } = useTranslation();
  const { iden = '' } = useParams();
  return (
    <RequireAuth>
      <Page title={t('orders.one', { iden })} narrow>
        <OrderView iden={iden} />
      </Page>
    </RequireAuth>
  );
}

export function OrdersRoute() {
  const { t } = useTranslation();
  return (
    <RequireAuth>
      <Page title={t('orders.title')}>
        <OrderList orderHref={paths.order.href} />
      </Page>
    </RequireAuth>
  );
}
