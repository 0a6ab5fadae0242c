import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Page, PageFrame } from '@/components/page';
import { useCartStore } from '@/features/cart/hooks/use-cart';
import { ProductCatalog } from '@/features/store/components/product-catalog';
import { ProductDetail } from '@/features/store/components/product-detail';
import { paths } from '../paths';

export function CatalogRoute() {
  const { t } = useTranslation();
  const cart = useCartStore();
  return (
    <Page
      title={t('store.title')}
      actions={
        <Button component={RouterLink} to={paths.cart.href()} variant="outlined">
          {t('nav.cartShort')}
        </Button>
      }
    >
      <ProductCatalog productHref={paths.product.href} onAddToCart={(p) => cart.add(p.id)} />
    </Page>
  );
}

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
