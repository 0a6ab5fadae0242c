import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '@/lib/till';
import { paths } from './paths';

/** Pages for signed-in users: anyone else is sent to sign in and brought back afterwards. */
export function RequireAuth({ level = 1, children }: { level?: number; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  if (!session.loggedIn) {
    // A session the server ended (901) or that ran out reads differently from a visit while signed out.
    const reason = session.endReason === 'invalid' || session.endReason === 'expired' ? 'expired' : 'required';
    return <Navigate replace to={paths.login.href(location.pathname + location.search, reason)} />;
  }
  if (session.level < level) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('errors.903')}</Alert>
      </Box>
    );
  }
  return children;
}
