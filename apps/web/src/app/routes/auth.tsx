import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Page } from '@/components/page';
import { ConfirmEmail } from '@/features/auth/components/confirm-email';
import { ForgotForm } from '@/features/auth/components/forgot-form';
import { LoginForm } from '@/features/auth/components/login-form';
import { PasskeySignIn } from '@/features/auth/components/passkey-sign-in';
import { SocialButtons } from '@/features/auth/components/social-buttons';
import { SocialFinish, SocialLinkConfirm } from '@/features/auth/components/social-finish';
import { SocialOutcomeView } from '@/features/auth/components/social-outcome';
import { RegisteredNext } from '@/features/auth/components/mail-sent';
import { RegisterForm } from '@/features/auth/components/register-form';
import { ResetForm } from '@/features/auth/components/reset-form';
import { meKey } from '@/lib/use-me';
import { useSession, useTill } from '@/lib/till';
import { paths, safeReturnPath } from '../paths';

export function LoginRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reason = params.get('reason');
  const from = safeReturnPath(params.get('from'));
  // A phone's native sign-in answers here: a 913 or 915 asks for more on this page.
  const [social, setSocial] = useState<unknown>(null);
  if (social) {
    return (
      <Page title={t('auth.signIn')} narrow>
        <SocialOutcomeView
          error={social}
          onSignedIn={() => void navigate(from, { replace: true })}
          onRestart={() => setSocial(null)}
        />
      </Page>
    );
  }
  return (
    <Page title={t('auth.signIn')} narrow>
      {reason === 'expired' ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('auth.expired')}
        </Alert>
      ) : null}
      {reason === 'required' ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('auth.required')}
        </Alert>
      ) : null}
      <LoginForm onSignedIn={() => void navigate(from, { replace: true })} />
      <PasskeySignIn onSignedIn={() => void navigate(from, { replace: true })} />
      <SocialButtons
        onOutcome={(outcome) =>
          outcome.kind === 'signedIn' ? void navigate(from, { replace: true }) : setSocial(outcome.error)
        }
      />
      <Box sx={{ mt: 3, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Link component={RouterLink} to={paths.forgot.href()}>
          {t('auth.forgot')}
        </Link>
        <Typography variant="body2">
          {t('auth.noAccount')}{' '}
          <Link component={RouterLink} to={paths.register.href()}>
            {t('auth.register')}
          </Link>
        </Typography>
      </Box>
    </Page>
  );
}

export function RegisterRoute() {
  const { t } = useTranslation();
  const [registered, setRegistered] = useState<string | null>(null);
  return (
    <Page title={t('auth.register')} narrow>
      {registered ? (
        <RegisteredNext email={registered} continueHref={paths.home.href()} />
      ) : (
        <>
          <RegisterForm onRegistered={(user) => setRegistered(user.email)} />
          <Typography variant="body2" sx={{ mt: 3 }}>
            {t('auth.haveAccount')}{' '}
            <Link component={RouterLink} to={paths.login.href()}>
              {t('auth.signIn')}
            </Link>
          </Typography>
        </>
      )}
    </Page>
  );
}

export function ForgotRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('auth.forgotTitle')} narrow>
      <Typography sx={{ mb: 1 }}>{t('auth.forgotText')}</Typography>
      <ForgotForm signInHref={paths.login.href()} />
    </Page>
  );
}

export function ResetRoute() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [done, setDone] = useState(false);
  return (
    <Page title={t('auth.resetTitle')} narrow>
      {done ? (
        <Alert severity="success" role="status">
          {t('auth.resetDone')}{' '}
          <Link component={RouterLink} to={paths.login.href()}>
            {t('auth.signIn')}
          </Link>
        </Alert>
      ) : (
        <ResetForm resetToken={token} onDone={() => setDone(true)} newLinkHref={paths.forgot.href()} />
      )}
    </Page>
  );
}

export function ConfirmRoute() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const session = useSession();
  const till = useTill();
  const client = useQueryClient();
  return (
    <Page title={t('auth.confirmTitle')} narrow>
      <ConfirmEmail
        confirmToken={token}
        signedIn={session.loggedIn}
        signInHref={paths.login.href(paths.confirm.href(token))}
        onConfirmed={() => {
          void client.invalidateQueries({ queryKey: meKey });
          // The confirmed address raises the level (to an administrator's, for a configured address): now, not at the next sign-in.
          void till.session.refreshUser();
        }}
      />
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to={session.loggedIn ? paths.profile.href() : paths.login.href()}>
          {session.loggedIn ? t('nav.profile') : t('auth.signIn')}
        </Link>
      </Box>
    </Page>
  );
}

/** After an account's deletion: the session has ended, and this says what happened. */
export function GoodbyeRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('deletion.goodbyeTitle')} narrow>
      <Typography variant="body1" role="status" gutterBottom>
        {t('deletion.goodbye')}
      </Typography>
      <Link component={RouterLink} to={paths.home.href()}>
        {t('deletion.backToStore')}
      </Link>
    </Page>
  );
}

/** Where a provider's web sign-in comes back to (`#ticket=` or `#error=`). */
export function SocialFinishRoute() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  const navigate = useNavigate();
  return (
    <Page title={t('social.finishTitle')} narrow>
      <SocialFinish
        fragment={hash}
        onSignedIn={() => void navigate(paths.home.href(), { replace: true })}
        onRestart={() => void navigate(paths.login.href(), { replace: true })}
      />
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.login.href()}>
          {t('social.backToSignIn')}
        </Link>
      </Box>
    </Page>
  );
}

/** A mailed link that links a provider to the account. */
export function SocialLinkRoute() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  return (
    <Page title={t('social.linkTitle')} narrow>
      <SocialLinkConfirm token={token} />
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.login.href()}>
          {t('auth.signIn')}
        </Link>
      </Box>
    </Page>
  );
}
