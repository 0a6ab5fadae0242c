// The smallest app on the web app's stack: each library the issue names does the least that a first
// screen asks of it (React renders, MUI themes a bar, a heading and a button, React Router routes and
// links, i18next translates, TanStack Query runs one query). Like Till's catalog, the query's data
// comes with the page, so axios, which would send it, loads only when it is called. bench/web builds
// it the way apps/web is built; the JavaScript its first screen loads is the floor that Till's first
// screen stands on.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next, useTranslation } from 'react-i18next';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: { title: 'Store', count: '{{count}} products' } } },
  initAsync: false,
});
const queries = new QueryClient();
const theme = createTheme({ palette: { primary: { main: '#1e5b4f' } } });

function Home() {
  const { t } = useTranslation();
  const products = useQuery({
    queryKey: ['products'],
    queryFn: async () => {
      const { default: axios } = await import('axios');
      return (await axios.post<{ products: unknown[] }>('/api/store/products', {}, { timeout: 50_000 })).data;
    },
    initialData: () => {
      const text = document.getElementById('catalog')?.textContent;
      return text ? (JSON.parse(text) as { products: unknown[] }) : undefined;
    },
  });
  return (
    <>
      <Box component="header" sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', px: 2, py: 1.5 }}>
        <Typography variant="h6">Till</Typography>
      </Box>
      <Box component="main" sx={{ p: 2 }}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Button component={Link} to="/cart">
          {t('count', { count: products.data?.products.length ?? 0 })}
        </Button>
      </Box>
    </>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <ThemeProvider theme={theme}>
    <CssBaseline />
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queries}>
        <BrowserRouter>
          <Routes>
            <Route path="*" element={<Home />} />
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>
    </I18nextProvider>
  </ThemeProvider>,
);
