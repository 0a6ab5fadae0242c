import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingState } from '@/components/states';
import { useSession, useTill } from '@/lib/till';
import { paths } from './paths';

/**
 * Pages for signed-in users: anyone else is sent to sign in and brought back afterwards. A page
 * that needs a higher level than the one kept with the session asks the server for the user first:
 * the kept level is what the server said last, and a level given since (an address confirmed, an
 * administrator made) must open the page without a new sign-in.
 */
export function RequireAuth({ level = 1, children }: { level?: number; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const till = useTill();
  const location = useLocation();
  const short = session.loggedIn && session.level < level;
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (!short || checked) return;
    let live = true;
    void till.session.refreshUser().then(() => {
      if (live) setChecked(true);
    });
    return () => {
      live = false;
    };
  }, [short, checked, till]);
  if (!session.loggedIn) {
    // A session the server ended (901) or that ran out reads differently from a visit while signed out.
    const reason = session.endReason === 'invalid' || session.endReason === 'expired' ? 'expired' : 'required';
    return <Navigate replace to={paths.login.href(location.pathname + location.search, reason)} />;
  }
  if (session.level < level) {
    if (!checked) return <LoadingState />;
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('errors.903')}</Alert>
      </Box>
    );
  }
  return children;
}
