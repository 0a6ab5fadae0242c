import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Page } from '@/components/page';
import { ErrorState, LoadingState } from '@/components/states';
import { useNavigate } from 'react-router-dom';
import { AvatarPicker } from '@/features/profile/components/avatar-picker';
import { DeleteAccount } from '@/features/profile/components/delete-account';
import { EmailForm } from '@/features/profile/components/email-form';
import { PasskeysSection } from '@/features/profile/components/passkeys-section';
import { LinkedProviders } from '@/features/profile/components/linked-providers';
import { PasswordForm } from '@/features/profile/components/password-form';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { SecurityLog } from '@/features/profile/components/security-log';
import { SessionsList } from '@/features/profile/components/sessions-list';
import { TwoFactor } from '@/features/profile/components/two-factor';
import { useMe } from '@/lib/use-me';
import { paths } from '../paths';
import { RequireAuth } from '../require-auth';

function Section({ title, children, danger }: { title: string; children: ReactNode; danger?: boolean }) {
  return (
    <Card
      variant="outlined"
      component="section"
      aria-label={title}
      sx={danger ? { borderColor: 'error.main' } : undefined}
    >
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function ProfileSections() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  if (me.isPending) return <LoadingState />;
  if (me.isError) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />;
  const user = me.data;
  return (
    <Stack spacing={2}>
      <Section title={t('profile.avatar')}>
        <AvatarPicker user={user} />
      </Section>
      <Section title={t('profile.details')}>
        <ProfileForm user={user} />
      </Section>
      <Section title={t('profile.email')}>
        <EmailForm user={user} />
      </Section>
      <Section title={t('profile.password')}>
        <PasswordForm />
      </Section>
      <Section title={t('security.twoFactor')}>
        <TwoFactor />
      </Section>
      <Section title={t('passkeys.title')}>
        <PasskeysSection />
      </Section>
      <Section title={t('social.profileTitle')}>
        <LinkedProviders />
      </Section>
      <Section title={t('profile.sessions')}>
        <SessionsList />
      </Section>
      <Section title={t('security.log')}>
        <SecurityLog />
      </Section>
      <Section title={t('deletion.title')} danger>
        <DeleteAccount user={user} onDeleted={() => void navigate(paths.goodbye.href(), { replace: true })} />
      </Section>
    </Stack>
  );
}

export function ProfileRoute() {
  const { t } = useTranslation();
  return (
    <RequireAuth>
      <Page title={t('profile.title')} narrow>
        <ProfileSections />
      </Page>
    </RequireAuth>
  );
}
