import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import type { SecurityLogEntry } from '@till/protocol';
import { formatDate } from '@/lib/format';
import { EmptyState } from './states';

/** "Firefox on Linux", or what is known of it. */
function useDevice() {
  const { t } = useTranslation();
  return (device: SecurityLogEntry['device']): string | null => {
    if (!device || (!device.browser && !device.os)) return null;
    if (device.browser && device.os) return t('security.device', { browser: device.browser, os: device.os });
    return device.browser ?? device.os;
  };
}

/** What the entry says happened, in words; the detail fills in method, count or address. */
function useDescribe() {
  const { t } = useTranslation();
  return (entry: SecurityLogEntry): string => {
    const d = entry.detail;
    const method = typeof d.method === 'string' ? t(`security.methods.${d.method}`, { defaultValue: d.method }) : '';
    return t(`security.events.${entry.kind}`, {
      method,
      count: typeof d.count === 'number' ? d.count : 0,
      to: typeof d.to === 'string' ? d.to : '',
      // A level by its name ("Administrator"), as the administrators' screens call it.
      level:
        typeof d.level === 'number'
          ? t(`admin.levels.${d.level}`, { defaultValue: t('admin.levels.other', { level: d.level }) })
          : '',
      amount: typeof d.amount === 'number' ? (d.amount > 0 ? `+${d.amount}` : String(d.amount)) : '',
      name: typeof d.name === 'string' ? d.name : '',
      provider: typeof d.provider === 'string' ? d.provider : '',
      defaultValue: entry.kind,
    });
  };
}

/**
 * A page of a security log, newest first: what happened, when, from which browser and system and
 * address, and whether an administrator did it. Paging is the caller's (the profile's own log, an
 * administrator's view of a user's).
 */
export function SecurityLogList({
  entries,
  total,
  page,
  pageSize,
  onPage,
  label,
}: {
  entries: SecurityLogEntry[];
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const device = useDevice();
  const describe = useDescribe();
  if (!total) return <EmptyState title={t('security.logEmpty')} />;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <>
      <List aria-label={label} dense>
        {entries.map((e) => {
          const where = [device(e.device), e.ip].filter(Boolean).join(' · ');
          return (
            <ListItem key={e.id} divider>
              <ListItemText
                primary={describe(e)}
                secondary={
                  <>
                    {formatDate(e.at, i18n.language)}
                    {where ? ` · ${where}` : ''}
                    {e.actorId ? ` · ${t('security.byAdmin')}` : ''}
                  </>
                }
                sx={{ wordBreak: 'break-word' }}
              />
            </ListItem>
          );
        })}
      </List>
      {pages > 1 ? (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 1, gap: 1 }}>
          <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
            {t('security.newer')}
          </Button>
          <Typography variant="body2">{t('security.pageOf', { page, pages })}</Typography>
          <Button onClick={() => onPage(page + 1)} disabled={page >= pages}>
            {t('security.older')}
          </Button>
        </Box>
      ) : null}
    </>
  );
}
