import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Backup, BackupRun } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatBytes, formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n-react';
import { useTill } from '@/lib/till';
import { backupLink, useBackups, useStartBackup } from '../api/backups-api';

/** A backup being taken: its step, and how far that step has come. */
function RunningBackup({ run }: { run: BackupRun }) {
  const { t, i18n } = useTranslation();
  const percent = run.total > 0 ? Math.min(100, Math.floor((run.done / run.total) * 100)) : 0;
  const measured = run.step === 'archive' || (run.step === 'uploads' && run.total > 0);
  return (
    <Alert severity="info" sx={{ '& .MuiAlert-message': { flexGrow: 1, minWidth: 0 } }}>
      <Typography variant="body2">
        {t('backups.running', { time: formatDate(run.startedAt, i18n.language) })}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t(`backups.steps.${run.step}`, { done: run.done, total: run.total, percent })}
      </Typography>
      <LinearProgress
        sx={{ mt: 1 }}
        variant={measured ? 'determinate' : 'indeterminate'}
        {...(measured ? { value: percent } : {})}
        aria-label={t('backups.progress')}
      />
    </Alert>
  );
}

/** The kept backups with their size and time: take one now (its progress shows), download one. */
export function BackupsAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const query = useBackups();
  const start = useStartBackup();
  const errorMessage = useErrorMessage('admin');
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
  const { backups, available, schedule, keep, run } = query.data;
  const running = run?.state === 'running';
  // The stored backup is announced to whoever started it here; a failure to every administrator.
  const startedHere = start.isSuccess && run?.startedAt === start.data.startedAt;
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
          <Button variant="contained" onClick={() => start.mutate()} disabled={start.isPending || running}>
            {start.isPending || running ? t('backups.taking') : t('backups.take')}
          </Button>
        </div>
      ) : null}
      {run && running ? <RunningBackup run={run} /> : null}
      {start.isError ? <Alert severity="error">{errorMessage(start.error)}</Alert> : null}
      {run?.state === 'failed' ? (
        <Alert severity="error">
          {t('backups.failed', {
            time: formatDate(run.startedAt, i18n.language),
            step: t(`backups.failedSteps.${run.step}`),
          })}
        </Alert>
      ) : null}
      {startedHere && run.state === 'done' && run.backup ? (
        <Alert severity="success">{t('backups.taken', { name: run.backup.name })}</Alert>
      ) : null}
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
