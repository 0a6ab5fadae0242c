import { useCallback, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { FrameButton } from '@/components/frame-button';
import { Page } from '@/components/page';
import { AddedNotice } from '@/features/cart/components/added-notice';
import { useCartStore } from '@/features/cart/hooks/use-cart';
import { ProductCatalog } from '@/features/store/components/product-catalog';
import { paths } from '../paths';

// The catalog is the first screen: its page is its own chunk, apart from the product page's.
export function CatalogRoute() {
  const { t } = useTranslation();
  const cart = useCartStore();
  const [added, setAdded] = useState<string | null>(null);
  const hide = useCallback(() => setAdded(null), []);
  return (
    <Page
      title={t('store.title')}
      actions={
        <FrameButton to={paths.cart.href()} variant="outlined">
          {t('nav.cartShort')}
        </FrameButton>
      }
    >
      <ProductCatalog
        productHref={paths.product.href}
        onAddToCart={(p) => {
          cart.add(p.id);
          setAdded(p.title);
        }}
      />
      <AddedNotice title={added} cartHref={paths.cart.href()} onClose={hide} />
    </Page>
  );
}
