import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { User } from '@till/protocol';
import { LoginForm } from './login-form';

/**
 * Sign-in over the current page, so that the page's waiting call (queued by the SDK until there is
 * a token) carries on where it was once the visitor has signed in.
 */
export function LoginDialog({
  open,
  onClose,
  onSignedIn,
  registerHref,
}: {
  open: boolean;
  onClose: () => void;
  onSignedIn: (user: User) => void;
  registerHref: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="xs">
      <DialogTitle id={id}>{t('auth.signInToContinue')}</DialogTitle>
      <DialogContent>
        <LoginForm onSignedIn={onSignedIn} autoFocus />
        <Typography variant="body2" sx={{ mt: 2 }}>
          {t('auth.noAccount')} <Link href={registerHref}>{t('auth.register')}</Link>
        </Typography>
      </DialogContent>
    </Dialog>
  );
}
