import { useNavigate, useParams } from 'react-router-dom';
import { PageFrame } from '@/components/page';
import { useCartStore } from '@/features/cart/hooks/use-cart';
import { ProductDetail } from '@/features/store/components/product-detail';
import { paths } from '../paths';

export function ProductRoute() {
  const { id = '' } = useParams();
  const cart = useCartStore();
  const navigate = useNavigate();
  return (
    <PageFrame>
      <ProductDetail
        idOrAlias={id}
        onAddToCart={(p) => cart.add(p.id)}
        onBuy={(p) => {
          cart.add(p.id);
          void navigate(paths.checkout.href());
        }}
      />
    </PageFrame>
  );
}
