import { useCallback, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PageFrame } from '@/components/page';
import { AddedNotice } from '@/features/cart/components/added-notice';
import { useCartStore } from '@/features/cart/hooks/use-cart';
import { ProductDetail } from '@/features/store/components/product-detail';
import { paths } from '../paths';

export function ProductRoute() {
  const { id = '' } = useParams();
  const cart = useCartStore();
  const navigate = useNavigate();
  const [added, setAdded] = useState<string | null>(null);
  const hide = useCallback(() => setAdded(null), []);
  return (
    <PageFrame>
      <ProductDetail
        idOrAlias={id}
        storeHref={paths.home.href()}
        onAddToCart={(p) => {
          cart.add(p.id);
          setAdded(p.title);
        }}
        onBuy={(p) => {
          cart.add(p.id);
          void navigate(paths.checkout.href());
        }}
        ordersHref={paths.orders.href()}
      />
      <AddedNotice title={added} cartHref={paths.cart.href()} onClose={hide} />
    </PageFrame>
  );
}
