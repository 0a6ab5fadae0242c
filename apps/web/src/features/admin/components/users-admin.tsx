import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AdminUser } from '@till/protocol';
import { useTranslation } from '@/lib/i18n-react';
import { useSearchParams } from 'react-router-dom';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate } from '@/lib/format';
import { useDebounced } from '@/lib/use-debounced';
import { useUserSearch } from '../api/admin-api';
import { DeleteUserDialog } from './delete-user-dialog';
import { UserDetail } from './user-detail';
import { UserSecurity } from './user-security';
import { AdjustCredits, FlagMarker, LevelName } from './user-parts';

/**
 * Users, searched by the server (part of the e-mail or name) and paged there; each opens its
 * detail view (orders, credits, files, sessions, flags, level), kept in the address (`user=`) so
 * that the browser's back button returns to the list.
 */
export function UsersAdmin() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const openUser = params.get('user');
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 300);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  const search = useUserSearch(query, page, perPage);
  const [security, setSecurity] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('user', id);
    else next.delete('user');
    setParams(next);
  };
  if (openUser) return <UserDetail userId={openUser} onBack={() => open(null)} />;
  const users = search.data?.users ?? [];
  const phoneHidden = { display: { xs: 'none', sm: 'table-cell' } };
  return (
    <>
      {security ? <UserSecurity user={security} onClose={() => setSecurity(null)} /> : null}
      <AdjustCredits />
      {deleted ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {t('deletion.adminDone', { email: deleted })}
        </Alert>
      ) : null}
      {deleting ? (
        <DeleteUserDialog
          user={deleting}
          onClose={(done) => {
            if (done) setDeleted(deleting.email);
            setDeleting(null);
          }}
        />
      ) : null}
      <Typography variant="h6" component="h2" gutterBottom>
        {t('admin.users')}
      </Typography>
      <TextField
        type="search"
        label={t('admin.searchUsers')}
        helperText={t('admin.searchUsersHint')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPage(0);
        }}
        fullWidth
        sx={{ maxWidth: 480, mb: 2 }}
        slotProps={{ htmlInput: { maxLength: 254 } }}
      />
      {search.isPending ? <LoadingState /> : null}
      {search.isError ? <ErrorState error={search.error} onRetry={() => void search.refetch()} /> : null}
      {search.data && !users.length ? (
        <EmptyState title={query ? t('admin.noUsersFound', { query }) : t('admin.noUsers')} />
      ) : null}
      {users.length ? (
        <Paper variant="outlined">
          <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label={t('admin.users')} aria-busy={search.isFetching}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('fields.email')}</TableCell>
                  <TableCell sx={phoneHidden}>{t('fields.name')}</TableCell>
                  <TableCell>{t('admin.level')}</TableCell>
                  <TableCell sx={phoneHidden}>{t('admin.credits')}</TableCell>
                  <TableCell sx={phoneHidden}>{t('admin.created')}</TableCell>
                  <TableCell>{t('admin.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {users.map((u) => (
                  <TableRow key={u.id} hover>
                    <TableCell>
                      <span style={{ wordBreak: 'break-all' }}>{u.email}</span>
                      {u.flaggedAt ? <FlagMarker user={u} /> : null}
                    </TableCell>
                    <TableCell sx={phoneHidden}>{u.name}</TableCell>
                    <TableCell>
                      <LevelName level={u.level} />
                    </TableCell>
                    <TableCell sx={phoneHidden}>{u.credits}</TableCell>
                    <TableCell sx={phoneHidden}>{formatDate(u.createdAt, i18n.language)}</TableCell>
                    <TableCell>
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        <Button onClick={() => open(u.id)} aria-label={t('admin.openUser', { email: u.email })}>
                          {t('admin.open')}
                        </Button>
                        <Button
                          size="small"
                          onClick={() => setSecurity(u)}
                          aria-label={t('security.openFor', { email: u.email })}
                        >
                          {t('security.open')}
                        </Button>
                        <Button
                          size="small"
                          color="error"
                          onClick={() => (setDeleted(null), setDeleting(u))}
                          aria-label={t('deletion.adminDeleteNamed', { email: u.email })}
                        >
                          {t('common.delete')}
                        </Button>
                      </Box>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={search.data?.total ?? 0}
            page={page}
            rowsPerPage={perPage}
            rowsPerPageOptions={[10, 25, 50]}
            onPageChange={(_e, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setPerPage(Number(e.target.value));
              setPage(0);
            }}
            labelRowsPerPage={t('common.rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) => t('common.displayedRows', { from, to, count })}
            getItemAriaLabel={(type) => t(`common.page.${type}`)}
          />
        </Paper>
      ) : null}
    </>
  );
}
