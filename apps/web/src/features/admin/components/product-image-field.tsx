import UploadIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { uploadProductImage } from '../api/admin-api';
import { useErrorMessage } from '@/components/states';

/**
 * A product's image: a picture uploaded through the files service (as a public file; the product
 * keeps its address), shown as a preview, or an address typed by hand for an image kept elsewhere.
 */
export function ProductImageField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (address: string) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage('admin');
  const inputId = useId();
  const [progress, setProgress] = useState(0);
  const [broken, setBroken] = useState(false);
  const upload = useMutation({
    mutationFn: (file: File) => {
      setProgress(0);
      return uploadProductImage(till, file, setProgress);
    },
    onSuccess: (address) => {
      setBroken(false);
      onChange(address);
    },
  });
  const percent = Math.round(progress * 100);
  const preview = value.trim();
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="p">
        {t('admin.image')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
        {preview && !broken ? (
          <Box
            component="img"
            src={till.api.serverUrl(preview)}
            alt={t('admin.imagePreview')}
            onError={() => setBroken(true)}
            data-testid="product-image-preview"
            sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }}
          />
        ) : null}
        <input
          id={inputId}
          type="file"
          accept="image/*"
          hidden
          data-testid="product-image-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file);
          }}
        />
        <Button
          component="label"
          htmlFor={inputId}
          variant="outlined"
          startIcon={<UploadIcon />}
          disabled={upload.isPending}
        >
          {preview ? t('admin.replaceImage') : t('admin.uploadImage')}
        </Button>
        {preview ? (
          <Button color="warning" onClick={() => onChange('')} disabled={upload.isPending}>
            {t('admin.removeImage')}
          </Button>
        ) : null}
      </Box>
      {upload.isPending ? (
        <Box sx={{ mt: 1 }}>
          <LinearProgress variant="determinate" value={percent} aria-label={t('files.uploading')} />
          <Typography variant="body2" role="status" aria-live="polite">
            {t('files.progress', { percent })}
          </Typography>
        </Box>
      ) : null}
      {upload.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(upload.error)}
        </Alert>
      ) : null}
      {upload.isSuccess && !upload.isPending ? (
        <Typography variant="body2" role="status" sx={{ mt: 1 }}>
          {t('admin.imageUploaded')}
        </Typography>
      ) : null}
      {broken && preview ? (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          {t('admin.imageBroken')}
        </Typography>
      ) : null}
      <TextField
        fullWidth
        margin="normal"
        label={t('admin.imageAddress')}
        value={value}
        error={Boolean(error)}
        helperText={error ?? t('admin.imageAddressHint')}
        onChange={(e) => {
          setBroken(false);
          onChange(e.target.value);
        }}
      />
    </Box>
  );
}
