import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { TABLE_ROWS_OPTIONS, TABLE_ROWS_PER_PAGE } from '@/lib/ui-constants';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Hidden on phone-width screens to keep the table from scrolling sideways. */
  hideOnPhone?: boolean;
}

/**
 * A table of rows held in memory: 10 per page, with 5, 10, 15 and All (-1) to choose from. On a
 * phone it scrolls inside its own box, never the page.
 */
export function DataTable<T>({
  label,
  rows,
  columns,
  rowKey,
}: {
  label: string;
  rows: readonly T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState<number>(TABLE_ROWS_PER_PAGE);
  const lastPage = perPage === -1 ? 0 : Math.max(0, Math.ceil(rows.length / perPage) - 1);
  const current = Math.min(page, lastPage);
  const visible = perPage === -1 ? rows : rows.slice(current * perPage, current * perPage + perPage);
  const phoneHidden = { display: { xs: 'none', sm: 'table-cell' } };
  // On a phone the cells give up some padding so that every column, the actions last, fits the width.
  const cell = (c: Column<T>) => ({ px: { xs: 1, sm: 2 }, ...(c.hideOnPhone ? phoneHidden : {}) });
  return (
    <Paper variant="outlined">
      {/* Focusable so that keyboard users can scroll a table wider than a phone screen. */}
      <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} sx={cell(c)}>
                  {c.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row) => (
              <TableRow key={rowKey(row)} hover>
                {columns.map((c) => (
                  <TableCell key={c.key} sx={cell(c)}>
                    {c.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows.length}
        page={current}
        rowsPerPage={perPage}
        rowsPerPageOptions={TABLE_ROWS_OPTIONS.map((n) => (n === -1 ? { label: t('common.all'), value: -1 } : n))}
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
  );
}
