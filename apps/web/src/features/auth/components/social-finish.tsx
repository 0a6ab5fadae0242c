import Alert from '@mui/material/Alert';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { User } from '@till/protocol';
import { LoadingState } from '@/components/states';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { confirmSocialLink, finishSocialSignIn } from '../api/social';
import { SocialOutcomeView } from './social-outcome';

/**
 * Where the provider's return lands: `#ticket=...` signs in (once: the ticket is single use), `#error=`
 * says why not. The fragment never reaches a server.
 */
export function SocialFinish({
  fragment,
  onSignedIn,
  onRestart,
}: {
  fragment: string;
  onSignedIn: (user: User) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const ticket = params.get('ticket');
  const problem = params.get('error');
  const mutation = useMutation({
    mutationFn: (value: string) => finishSocialSignIn(till, value),
    onSuccess: (res) => onSignedIn(res.user),
  });
  const started = useRef(false);
  useEffect(() => {
    if (ticket && !started.current) {
      started.current = true;
      mutation.mutate(ticket);
    }
  }, [ticket, mutation]);
  if (mutation.isError)
    return <SocialOutcomeView error={mutation.error} onSignedIn={onSignedIn} onRestart={onRestart} />;
  if (ticket) return <LoadingState label={t('social.finishing')} />;
  const word = problem === 'denied' || problem === 'expired' ? problem : 'failed';
  return (
    <Alert severity="error" role="alert">
      {t(`social.problem.${word}`)}
    </Alert>
  );
}

/** A mailed link that links a provider to the account. */
export function SocialLinkConfirm({ token }: { token: string }) {
  const { t } = useTranslation();
  const till = useTill();
  const mutation = useMutation({ mutationFn: () => confirmSocialLink(till, token) });
  const started = useRef(false);
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      mutation.mutate();
    }
  }, [mutation]);
  if (mutation.isSuccess)
    return (
      <Alert severity="success" role="status">
        {t('social.linked')}
      </Alert>
    );
  if (mutation.isError)
    return (
      <Alert severity="error" role="alert">
        {t('social.expired')}
      </Alert>
    );
  return <LoadingState label={t('social.linking')} />;
}
