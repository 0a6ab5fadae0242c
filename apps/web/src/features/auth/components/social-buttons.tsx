import AppleIcon from '@mui/icons-material/Apple';
import GoogleIcon from '@mui/icons-material/Google';
import LoginIcon from '@mui/icons-material/Login';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { SocialProvider } from '@till/protocol';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { offeredProviders } from '@/lib/social-providers';
import { isNativeShell, platformKind } from '@/platform/platform';
import { nativeSocialSignIn, socialProvidersQuery, startInSystemBrowser, startSocialSignIn } from '../api/social';
import type { SocialOutcome } from './social-outcome';

function ProviderIcon({ provider }: { provider: SocialProvider }) {
  if (provider.kind === 'google') return <GoogleIcon />;
  if (provider.kind === 'apple') return <AppleIcon />;
  return <LoginIcon />;
}

/**
 * "Continue with Google / Apple / ...": one button per provider the server offers, nothing when it
 * offers none. In the browser the button leaves for the provider's page; in the phone apps it opens
 * the provider's own sheet and the outcome comes back here, or, for a provider without a sheet on
 * this platform, its page in the system browser, whose return comes back through the app's URL
 * scheme to the finish page.
 */
export function SocialButtons({ onOutcome }: { onOutcome: (outcome: SocialOutcome) => void }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const providers = useQuery(socialProvidersQuery(till));
  const mutation = useMutation({
    mutationFn: async (provider: SocialProvider) => {
      const signedIn = await nativeSocialSignIn(till, provider, i18n.language);
      if (signedIn) return signedIn;
      // A phone app without the provider's sheet: its page in the system browser, never in the app.
      if (isNativeShell()) await startInSystemBrowser(till, provider, i18n.language);
      else window.location.assign(await startSocialSignIn(till, provider.id, i18n.language));
      return undefined;
    },
    onSuccess: (res) => {
      if (res) onOutcome({ kind: 'signedIn', user: res.user });
    },
    onError: (error) => onOutcome({ kind: 'failed', error }),
  });
  if (providers.isPending) {
    return (
      <Stack spacing={1} sx={{ mt: 2 }} aria-busy="true" aria-label={t('social.loading')}>
        <Skeleton variant="rounded" height={40} />
      </Stack>
    );
  }
  const offered = offeredProviders(providers.data ?? [], platformKind());
  // No provider, or the list could not be read: the password form stands alone.
  if (!offered.length) return null;
  return (
    <>
      <Divider sx={{ my: 2 }}>{t('passkeys.or')}</Divider>
      <Stack spacing={1}>
        {offered.map((provider) => (
          <Button
            key={provider.id}
            variant={provider.kind === 'apple' ? 'contained' : 'outlined'}
            // Apple's guidelines ask for a black (or white) button with its logo.
            sx={provider.kind === 'apple' ? { bgcolor: '#000', color: '#fff', '&:hover': { bgcolor: '#222' } } : {}}
            fullWidth
            startIcon={<ProviderIcon provider={provider} />}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate(provider)}
          >
            {mutation.isPending && mutation.variables?.id === provider.id
              ? t('social.leaving', { provider: provider.name })
              : t('social.continueWith', { provider: provider.name })}
          </Button>
        ))}
      </Stack>
    </>
  );
}
