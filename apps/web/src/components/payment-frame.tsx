import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { PaymentPage } from '@/lib/payment';

/**
 * A provider's payment page in a frame over the app (wide screens; see `opensInFrame`). The frame
 * only shows the page: whoever opens it follows the order and closes it once the order is final.
 * A click beside it does not close it, so that a stray click cannot throw away a half-filled
 * payment; the close button and Escape do.
 */
export function PaymentFrameDialog({ payment, onClose }: { payment: PaymentPage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const provider = payment ? t(`providers.${payment.provider}`, { defaultValue: payment.provider }) : '';
  return (
    <Dialog
      open={payment !== null}
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      maxWidth="md"
      fullWidth
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`} sx={{ pr: 7 }}>
        {t('paymentFrame.title', { provider })}
      </DialogTitle>
      <IconButton
        aria-label={t('paymentFrame.close')}
        onClick={onClose}
        sx={{ position: 'absolute', right: 8, top: 8 }}
      >
        <CloseIcon />
      </IconButton>
      <DialogContent sx={{ pt: 0 }}>
        <Typography id={`${id}-text`} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('paymentFrame.text')}
        </Typography>
        {payment ? (
          <Box
            component="iframe"
            src={payment.url}
            title={t('paymentFrame.frameTitle', { provider })}
            // The provider's page runs its own scripts and forms and may open a window (a bank's
            // check); it may leave the frame only when the buyer clicks something that does so.
            sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
            allow="payment"
            referrerPolicy="origin"
            sx={{ display: 'block', width: '100%', height: 'min(640px, 70vh)', border: 0 }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
