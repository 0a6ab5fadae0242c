import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { Code, type User } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { ApiError, codeOf } from '@/lib/api-error';
import { meKey } from '@/lib/use-me';
import { useTill } from '@/lib/till';
import { getPlatform } from '@/platform/platform';
import { updateProfile, uploadAvatar } from '../api/profile-api';
import { serverUrl } from '@/lib/server-url';

/** Picks an image (scaled in the browser to fit 1024 x 768), uploads it and sets it as the avatar. */
export function AvatarPicker({ user }: { user: User }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: async (remove: boolean) => {
      if (remove) return updateProfile(till, { avatarFileId: null });
      let file: File | null;
      try {
        file = await (await getPlatform()).pickImage();
      } catch {
        // The browser could not decode the picture (a broken or unsupported file): worded as the
        // server's refusal of a file that is no picture.
        throw new ApiError({ code: Code.InvalidInput, parameter: 'avatarFileId', reason: 'invalid' });
      }
      if (!file) return null;
      const uploaded = await uploadAvatar(till, file);
      return updateProfile(till, { avatarFileId: uploaded.id });
    },
    onSuccess: (updated) => {
      if (updated) client.setQueryData(meKey, updated);
    },
  });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Avatar
        src={serverUrl(user.avatarUrl)}
        alt={t('profile.avatarOf', { name: user.name })}
        sx={{ width: 72, height: 72 }}
      >
        {user.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Button variant="outlined" onClick={() => mutation.mutate(false)} disabled={mutation.isPending}>
        {mutation.isPending ? t('profile.uploading') : t('profile.chooseAvatar')}
      </Button>
      {user.avatarUrl ? (
        <Button onClick={() => mutation.mutate(true)} disabled={mutation.isPending}>
          {t('profile.removeAvatar')}
        </Button>
      ) : null}
      {mutation.isError ? (
        <Alert severity="error" role="alert" sx={{ width: '100%' }}>
          {codeOf(mutation.error) === Code.InvalidInput ? t('profile.badImage') : errorMessage(mutation.error)}
        </Alert>
      ) : null}
    </Box>
  );
}
