import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { SecurityLogList } from '@/components/security-log-list';
import { ErrorState, LoadingState } from '@/components/states';
import { useSecurityLog } from '../api/profile-api';

const PAGE_SIZE = 10;

/** The user's own security log, newest first, ten to a page. */
export function SecurityLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useSecurityLog(page, PAGE_SIZE);
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <SecurityLogList
      label={t('security.log')}
      entries={query.data.entries}
      total={query.data.total}
      page={page}
      pageSize={PAGE_SIZE}
      onPage={setPage}
    />
  );
}
