import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { ErrorState, LoadingState } from '@/components/states';
import { AvatarPicker } from '@/features/profile/components/avatar-picker';
import { EmailForm } from '@/features/profile/components/email-form';
import { PasswordForm } from '@/features/profile/components/password-form';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { SecurityLog } from '@/features/profile/components/security-log';
import { SessionsList } from '@/features/profile/components/sessions-list';
import { TwoFactor } from '@/features/profile/components/two-factor';
import { useMe } from '@/lib/use-me';
import { RequireAuth } from '../require-auth';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
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
      <Section title={t('profile.sessions')}>
        <SessionsList />
      </Section>
      <Section title={t('security.log')}>
        <SecurityLog />
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
