import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Backup } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatBytes, formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { backupLink, useBackups, useStartBackup } from '../api/backups-api';

/** The kept backups with their size and time: take one now, download one. */
export function BackupsAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const query = useBackups();
  const start = useStartBackup();
  const errorMessage = useErrorMessage();
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const download = async (b: Backup) => {
    setDownloadError(null);
    try {
      window.location.assign(await backupLink(till, b.name));
    } catch (error) {
      setDownloadError(error);
    }
  };
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const { backups, available, schedule, keep } = query.data;
  return (
    <Stack spacing={2}>
      {available ? (
        <Typography variant="body2" color="text.secondary">
          {schedule ? t('backups.scheduled', { schedule, keep }) : t('backups.unscheduled', { keep })}
        </Typography>
      ) : (
        <Alert severity="info">{t('backups.postgres')}</Alert>
      )}
      {available ? (
        <div>
          <Button variant="contained" onClick={() => start.mutate()} disabled={start.isPending}>
            {start.isPending ? t('backups.taking') : t('backups.take')}
          </Button>
        </div>
      ) : null}
      {start.isError ? <Alert severity="error">{errorMessage(start.error)}</Alert> : null}
      {start.isSuccess ? <Alert severity="success">{t('backups.taken', { name: start.data.name })}</Alert> : null}
      {downloadError ? <Alert severity="error">{errorMessage(downloadError)}</Alert> : null}
      {backups.length ? (
        <DataTable<Backup>
          label={t('backups.title')}
          rows={backups}
          rowKey={(b) => b.name}
          columns={[
            { key: 'takenAt', header: t('backups.takenAt'), render: (b) => formatDate(b.takenAt, i18n.language) },
            { key: 'size', header: t('backups.size'), render: (b) => formatBytes(b.size, i18n.language) },
            { key: 'name', header: t('backups.name'), render: (b) => b.name, hideOnPhone: true },
            {
              key: 'download',
              header: '',
              render: (b) => (
                <Button
                  onClick={() => void download(b)}
                  aria-label={t('backups.downloadNamed', { name: formatDate(b.takenAt, i18n.language) })}
                >
                  {t('backups.download')}
                </Button>
              ),
            },
          ]}
        />
      ) : (
        <EmptyState title={t('backups.none')} />
      )}
    </Stack>
  );
}
