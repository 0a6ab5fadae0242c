import { createTheme } from '@mui/material/styles';
import { DIALOG_TRANSITION_MS, MENU_MAX_HEIGHT_PX, TABLE_ROWS_OPTIONS } from './ui-constants';

/** The one theme of the app: the specification's UI constants live here as component defaults. */
export const theme = createTheme({
  palette: {
    primary: { main: '#1e5b4f' },
    secondary: { main: '#8a3b12' },
    // Darker than MUI's default so that warning text buttons keep a 4.5:1 contrast.
    warning: { main: '#9a4a00' },
    background: { default: '#f6f8f7' },
  },
  shape: { borderRadius: 10 },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    MuiDialog: { defaultProps: { transitionDuration: DIALOG_TRANSITION_MS } },
    // Long words (e-mail addresses) wrap instead of making the message scroll on a phone.
    MuiAlert: { styleOverrides: { message: { overflowWrap: 'anywhere', minWidth: 0 } } },
    MuiMenu: { styleOverrides: { paper: { maxHeight: MENU_MAX_HEIGHT_PX } } },
    MuiPopover: { styleOverrides: { paper: { maxHeight: MENU_MAX_HEIGHT_PX } } },
    MuiAutocomplete: { styleOverrides: { listbox: { maxHeight: MENU_MAX_HEIGHT_PX } } },
    MuiTablePagination: {
      defaultProps: { rowsPerPageOptions: TABLE_ROWS_OPTIONS.map((n) => (n === -1 ? { label: 'All', value: -1 } : n)) },
    },
    // Touch targets of at least 44 px on phones.
    MuiButton: { styleOverrides: { root: { minHeight: 44, textTransform: 'none' } } },
    MuiIconButton: { styleOverrides: { root: { minWidth: 44, minHeight: 44 } } },
    MuiListItemButton: { styleOverrides: { root: { minHeight: 48 } } },
  },
});
