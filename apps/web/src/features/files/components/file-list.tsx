import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { FileInfo } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataTable } from '@/components/data-table';
import { useSaveFile } from '@/components/saved-file';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatBytes, formatDate } from '@/lib/format';
import { serverUrl } from '@/lib/server-url';
import { useTill } from '@/lib/till';
import { deleteFile, filesKey, useFiles } from '../api/files-api';

/** The user's files: download through the platform, delete after asking. */
export function FileList() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const query = useFiles();
  const [doomed, setDoomed] = useState<FileInfo | null>(null);
  const { save, notice } = useSaveFile();
  const remove = useMutation({
    mutationFn: (file: FileInfo) => deleteFile(till, file.id),
    onSuccess: () => {
      setDoomed(null);
      void client.invalidateQueries({ queryKey: filesKey });
    },
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data.files.length) return <EmptyState title={t('files.empty')} />;
  return (
    <>
      {remove.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(remove.error)}
        </Alert>
      ) : null}
      <DataTable<FileInfo>
        label={t('files.title')}
        rows={query.data.files}
        rowKey={(f) => f.id}
        columns={[
          {
            key: 'name',
            header: t('files.name'),
            render: (f) => <span style={{ wordBreak: 'break-all' }}>{f.name}</span>,
          },
          { key: 'size', header: t('files.size'), render: (f) => formatBytes(f.size, i18n.language) },
          {
            key: 'date',
            header: t('files.date'),
            render: (f) => formatDate(f.createdAt, i18n.language),
            hideOnPhone: true,
          },
          {
            key: 'actions',
            header: t('files.actions'),
            render: (f) => (
              <>
                <IconButton
                  aria-label={t('files.download', { name: f.name })}
                  onClick={() => save(f.name, { url: serverUrl(f.url) })}
                >
                  <DownloadIcon />
                </IconButton>
                <IconButton aria-label={t('files.delete', { name: f.name })} onClick={() => setDoomed(f)}>
                  <DeleteIcon />
                </IconButton>
              </>
            ),
          },
        ]}
      />
      {notice}
      <ConfirmDialog
        open={doomed !== null}
        title={t('files.deleteTitle')}
        text={t('files.deleteText', { name: doomed?.name ?? '' })}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => doomed && remove.mutate(doomed)}
        onClose={() => setDoomed(null)}
      />
    </>
  );
}
