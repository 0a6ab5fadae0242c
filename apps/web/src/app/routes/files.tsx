import { useTranslation } from '@/lib/i18n-react';
import { Page } from '@/components/page';
import { FileList } from '@/features/files/components/file-list';
import { FileUpload } from '@/features/files/components/file-upload';
import { RequireAuth } from '../require-auth';

export function FilesRoute() {
  const { t } = useTranslation();
  return (
    <RequireAuth>
      <Page title={t('files.title')}>
        <FileUpload />
        <FileList />
      </Page>
    </RequireAuth>
  );
}
