import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { FrameButton } from '@/components/frame-button';

const SHOWN_MS = 6000;

/**
 * Says that a product went into the cart, with the way to it ("View cart"), at the foot of the
 * screen for a few seconds. Drawn like MUI's Snackbar without it: the catalog is the first screen,
 * whose JavaScript is measured (bench/web). A live region, so screen readers hear it too.
 */
export function AddedNotice({
  title,
  cartHref,
  onClose,
}: {
  title: string | null;
  cartHref: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!title) return;
    const timer = setTimeout(onClose, SHOWN_MS);
    return () => clearTimeout(timer);
  }, [title, onClose]);
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        position: 'fixed',
        zIndex: 1400,
        left: { xs: 8, sm: 24 },
        right: { xs: 8, sm: 'auto' },
        bottom: 'calc(16px + env(safe-area-inset-bottom, 0px))',
        display: title ? 'flex' : 'none',
        alignItems: 'center',
        gap: 1,
        flexWrap: 'wrap',
        px: 2,
        py: 1,
        borderRadius: 1,
        boxShadow: 6,
        bgcolor: 'grey.900',
        color: 'common.white',
      }}
    >
      <Typography variant="body2" sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {title ? t('store.added', { title }) : ''}
      </Typography>
      {title ? (
        <FrameButton
          to={cartHref}
          size="small"
          sx={{ color: 'common.white', fontWeight: 700, textDecoration: 'underline' }}
        >
          {t('store.viewCart')}
        </FrameButton>
      ) : null}
    </Box>
  );
}
