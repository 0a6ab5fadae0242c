import PhotoIcon from '@mui/icons-material/AddPhotoAlternate';
import UploadIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useErrorMessage } from '@/components/states';
import { formatBytes } from '@/lib/format';
import { useTill } from '@/lib/till';
import { getPlatform } from '@/platform/platform';
import { filesKey, refuseFiles, uploadFiles, useUploadLimits } from '../api/files-api';

/** Chooses several files and uploads them with a progress bar. */
export function FileUpload() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const limits = useUploadLimits();
  const [refusal, setRefusal] = useState<string | null>(null);
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const inputId = useId();
  const [progress, setProgress] = useState(0);
  const [badImage, setBadImage] = useState(false);
  const mutation = useMutation({
    mutationFn: (files: File[]) => {
      setProgress(0);
      return uploadFiles(till, files, setProgress);
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: filesKey }),
  });
  const percent = Math.round(progress * 100);
  return (
    <Box sx={{ mb: 3 }}>
      <input
        id={inputId}
        type="file"
        multiple
        hidden
        accept={limits.data ? [...limits.data.types, ...limits.data.extensions].join(',') : undefined}
        aria-describedby={`${inputId}-limits`}
        data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          setRefusal(null);
          if (!files.length) return;
          // Checked before anything is sent: a file too large is refused without uploading it.
          const refused = limits.data ? refuseFiles(files, limits.data) : null;
          if (refused && limits.data) {
            mutation.reset();
            const name = refused.file?.name ?? '';
            const size = formatBytes(refused.file?.size ?? 0, i18n.language);
            const max = formatBytes(limits.data.maxFileBytes, i18n.language);
            if (refused.reason === 'too_large') setRefusal(t('files.tooLarge', { name, size, max }));
            else if (refused.reason === 'type') setRefusal(t('files.badType', { name }));
            else setRefusal(t('files.tooMany', { count: limits.data.maxFiles }));
            return;
          }
          mutation.mutate(files);
        }}
      />
      <Button
        component="label"
        htmlFor={inputId}
        variant="contained"
        startIcon={<UploadIcon />}
        disabled={mutation.isPending}
      >
        {t('files.upload')}
      </Button>{' '}
      {/* A photo from the library, scaled to fit 1024 x 768 before it goes (phones: the system picker). */}
      <Button
        variant="outlined"
        startIcon={<PhotoIcon />}
        disabled={mutation.isPending}
        onClick={() => {
          setBadImage(false);
          void getPlatform()
            .then((p) => p.pickImage())
            .then(
              (photo) => photo && mutation.mutate([photo]),
              // The picture could not be decoded (a broken or unsupported file).
              () => setBadImage(true),
            );
        }}
      >
        {t('files.uploadPhoto')}
      </Button>
      <Typography id={`${inputId}-limits`} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {limits.data
          ? t('files.limits', {
              size: formatBytes(limits.data.maxFileBytes, i18n.language),
              count: limits.data.maxFiles,
            })
          : '\u00a0'}
      </Typography>
      {mutation.isPending ? (
        <Box sx={{ mt: 2 }}>
          <LinearProgress variant="determinate" value={percent} aria-label={t('files.uploading')} />
          <Typography variant="body2" role="status" aria-live="polite">
            {t('files.progress', { percent })}
          </Typography>
        </Box>
      ) : null}
      {mutation.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {t('files.uploaded', { count: mutation.data.length })}
        </Alert>
      ) : null}
      {badImage ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {t('files.badImage')}
        </Alert>
      ) : null}
      {refusal ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {refusal}
        </Alert>
      ) : null}
      {mutation.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
    </Box>
  );
}
