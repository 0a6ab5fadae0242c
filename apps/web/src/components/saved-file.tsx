import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { getPlatform } from '@/platform/platform';
import type { FileContent, SavedFile } from '@/platform/types';

/**
 * Saves a file through the platform and says where it went, with a button that opens or shares it
 * where the platform can (the phones' share sheet; a browser has its own downloads bar).
 */
export function useSaveFile(): { save: (name: string, content: FileContent) => void; notice: ReactNode } {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<{ file: SavedFile; canOpen: boolean } | null>(null);
  const save = useCallback((name: string, content: FileContent) => {
    void getPlatform().then(async (p) => setSaved({ file: await p.saveFile(name, content), canOpen: p.canOpenSaved }));
  }, []);
  const notice = (
    <Snackbar
      open={saved !== null}
      autoHideDuration={8000}
      onClose={(_, reason) => reason !== 'clickaway' && setSaved(null)}
      message={saved ? t(`saved.${saved.file.where}`, { name: saved.file.name }) : ''}
      action={
        saved?.canOpen ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              const { file } = saved;
              void getPlatform().then((p) => p.openFile(file));
            }}
          >
            {t('saved.open')}
          </Button>
        ) : null
      }
    />
  );
  return { save, notice };
}
