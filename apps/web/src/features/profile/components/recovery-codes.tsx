import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useSaveFile } from '@/components/saved-file';

/**
 * The recovery codes, shown once: copy them or save them as a text file before leaving. `renewed`
 * says they replace earlier ones, which no longer work.
 */
export function RecoveryCodes({ codes, onDone, renewed }: { codes: string[]; onDone: () => void; renewed?: boolean }) {
  const { t } = useTranslation();
  const { save, notice } = useSaveFile();
  const [copied, setCopied] = useState<boolean | null>(null);
  const text = codes.join('\n');
  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t(renewed ? 'security.recoveryRenewed' : 'security.recoveryOnce')}
      </Alert>
      <Box
        component="ol"
        aria-label={t('security.recoveryCodes')}
        sx={{
          fontFamily: 'monospace',
          fontSize: '1.05rem',
          columns: { xs: 1, sm: 2 },
          pl: 4,
          my: 1,
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        <Button
          variant="outlined"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {t('security.copy')}
        </Button>
        <Button variant="outlined" onClick={() => save('till-recovery-codes.txt', { text: `${text}\n` })}>
          {t('security.download')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('security.savedThem')}
        </Button>
      </Box>
      {copied !== null ? (
        <Alert severity={copied ? 'success' : 'error'} role="status" sx={{ mt: 1 }}>
          {copied ? t('security.copied') : t('security.copyFailed')}
        </Alert>
      ) : null}
      {notice}
    </Box>
  );
}
