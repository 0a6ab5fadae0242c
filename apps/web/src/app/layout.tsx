import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Outlet, Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Level } from '@till/protocol';
import { FrameButton } from '@/components/frame-button';
import { AccountIcon, CartIcon, LanguageIcon, MenuIcon } from '@/components/frame-icons';
import { LoadingState } from '@/components/states';
import { useCart } from '@/features/cart/hooks/use-cart';
import { LANGUAGES, setLanguage } from '@/lib/i18n';
import { useSession, useTill } from '@/lib/till';
import { useAppLinks, useInAppStoreAtStart } from './app-links';
import { paths } from './paths';

const inset = (side: string) => `var(--safe-area-inset-${side}, env(safe-area-inset-${side}, 0px))`;
const SAFE_TOP = inset('top');
const SAFE_BOTTOM = inset('bottom');
const SAFE_LEFT = inset('left');
const SAFE_RIGHT = inset('right');

/** Sends the user to sign in, keeping their place, when the server says the session is gone (901). */
function useSignInOnInvalidToken() {
  const till = useTill();
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  useEffect(
    () =>
      till.session.subscribe((event) => {
        if (event.type === 'end' && (event.reason === 'invalid' || event.reason === 'expired')) {
          void navigate(paths.login.href(here, 'expired'));
        }
      }),
    [till, navigate, here],
  );
}

/** After sign-in the interface takes the language the account keeps, when the app has it. */
function useAccountLanguage() {
  const till = useTill();
  const { i18n } = useTranslation();
  useEffect(
    () =>
      till.session.subscribe((event) => {
        const lang = event.type === 'start' ? event.state.user?.lang : undefined;
        if (lang && lang !== i18n.language && LANGUAGES.some((l) => l.code === lang)) void setLanguage(i18n, lang);
      }),
    [till, i18n],
  );
}

/**
 * The store's answers carry product titles in the language of the call (carts, checkouts, orders):
 * when the interface changes language, those in view are asked for again in the new one.
 */
function useStoreTextsInLanguage() {
  const { i18n } = useTranslation();
  const client = useQueryClient();
  useEffect(
    () =>
      i18n.onLanguageChange(() => {
        void client.invalidateQueries({ queryKey: ['store'] });
      }),
    [i18n, client],
  );
}

/**
 * Keeps the level the interface goes by in step with the server's: the user is asked for when the
 * app opens and whenever it comes back to the front (at most every 15 s), so a level given or
 * taken away while the app was open (an administrator made, an address confirmed in another tab)
 * shows without a new sign-in. The server checks the level on every call regardless.
 */
function useFreshLevel() {
  const till = useTill();
  const session = useSession();
  useEffect(() => {
    if (!session.loggedIn) return;
    let last = 0;
    const refresh = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < 15_000) return;
      last = Date.now();
      void till.session.refreshUser();
    };
    refresh();
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('focus', refresh);
    return () => {
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('focus', refresh);
    };
  }, [till, session.loggedIn]);
}

function useNavItems() {
  const { t } = useTranslation();
  const session = useSession();
  const items = [{ to: paths.home.href(), label: t('nav.store') }];
  if (session.loggedIn) {
    items.push(
      { to: paths.orders.href(), label: t('nav.orders') },
      { to: paths.credits.href(), label: t('nav.credits') },
      { to: paths.files.href(), label: t('nav.files') },
      { to: paths.profile.href(), label: t('nav.profile') },
    );
    if (session.level >= Level.Admin) items.push({ to: paths.admin.href(), label: t('nav.admin') });
  }
  return items;
}

const menus = () => import('./nav-menus');
const LanguageMenuList = lazy(async () => ({ default: (await menus()).LanguageMenuList }));
const AccountMenuList = lazy(async () => ({ default: (await menus()).AccountMenuList }));
const NavDrawer = lazy(async () => ({ default: (await menus()).NavDrawer }));

function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <FrameButton
        icon
        color="inherit"
        aria-label={t('nav.language')}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <LanguageIcon />
      </FrameButton>
      {anchor ? (
        <Suspense fallback={null}>
          <LanguageMenuList anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}

function AccountMenu() {
  const { t } = useTranslation();
  const till = useTill();
  const session = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!session.loggedIn) {
    return (
      <FrameButton color="inherit" to={paths.login.href()}>
        {t('nav.signIn')}
      </FrameButton>
    );
  }
  const signOut = async () => {
    setAnchor(null);
    await till.api.logout();
    // The SDK ends the session even when the server could not be reached.
    till.session.clear('logout');
    client.clear();
    void navigate(paths.home.href());
  };
  return (
    <>
      <FrameButton
        icon
        color="inherit"
        aria-label={t('nav.account', { name: session.user?.name ?? '' })}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountIcon />
      </FrameButton>
      {anchor ? (
        <Suspense fallback={null}>
          <AccountMenuList
            anchor={anchor}
            email={session.user?.email ?? ''}
            onClose={() => setAnchor(null)}
            onSignOut={() => void signOut()}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** The number of items in the cart, drawn over the cart icon like MUI's Badge. */
function CartCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        position: 'absolute',
        top: 2,
        right: 0,
        minWidth: 20,
        height: 20,
        px: 0.75,
        borderRadius: 10,
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
        typography: 'caption',
        fontWeight: 600,
        lineHeight: '20px',
        textAlign: 'center',
      }}
    >
      {count > 99 ? '99+' : count}
    </Box>
  );
}

/**
 * The frame of every page: a bar with navigation, cart, language and account, and the page. The
 * bar, skip link and cart count are drawn with Box rather than AppBar, Link and Badge: the frame is
 * part of the first screen, whose JavaScript is measured (bench/web), and they look the same.
 */
export function Layout() {
  const { t } = useTranslation();
  const { count } = useCart();
  const items = useNavItems();
  const location = useLocation();
  const [drawer, setDrawer] = useState(false);
  useSignInOnInvalidToken();
  useAppLinks();
  useInAppStoreAtStart();
  useAccountLanguage();
  useStoreTextsInLanguage();
  useFreshLevel();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', overflowX: 'hidden' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: -9999,
          color: 'primary.main',
          '&:focus': { left: 8, top: 8, zIndex: 2000, bgcolor: 'background.paper', p: 1 },
        }}
      >
        {t('nav.skip')}
      </Box>
      <Box
        component="header"
        sx={{
          position: 'sticky',
          top: 0,
          // Phones draw the page under the status bar and beside the notch (viewport-fit=cover): the
          // bar's color runs under them while its contents keep clear. Capacitor hands Android's
          // insets over as variables; iOS and browsers have env(); elsewhere both are 0.
          pt: SAFE_TOP,
          pl: SAFE_LEFT,
          pr: SAFE_RIGHT,
          zIndex: 'appBar',
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          boxShadow: 1,
        }}
      >
        {/* MUI's Toolbar in look (the first screen would load it only for this). */}
        <Box
          sx={(theme) => ({
            ...theme.mixins.toolbar,
            position: 'relative',
            display: 'flex',
            alignItems: 'center',
            gap: 0.5,
            px: { xs: 2, sm: 3 },
          })}
        >
          <FrameButton
            icon="start"
            color="inherit"
            aria-label={t('nav.menu')}
            onClick={() => setDrawer(true)}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </FrameButton>
          <Typography
            variant="h6"
            component={RouterLink}
            to={paths.home.href()}
            sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: 2 }}
          >
            Till
          </Typography>
          <Box
            component="nav"
            aria-label={t('nav.main')}
            sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, flexGrow: 1 }}
          >
            {items.map((i) => (
              <FrameButton
                key={i.to}
                color="inherit"
                to={i.to}
                aria-current={location.pathname === i.to ? 'page' : undefined}
              >
                {i.label}
              </FrameButton>
            ))}
          </Box>
          <Box sx={{ flexGrow: { xs: 1, md: 0 } }} />
          <FrameButton icon color="inherit" to={paths.cart.href()} aria-label={t('nav.cart', { count })}>
            <CartIcon />
            <CartCount count={count} />
          </FrameButton>
          <LanguageMenu />
          <AccountMenu />
        </Box>
      </Box>
      {drawer ? (
        <Suspense fallback={null}>
          <NavDrawer items={items} current={location.pathname} onClose={() => setDrawer(false)} />
        </Suspense>
      ) : null}
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{ flexGrow: 1, outline: 'none', pb: SAFE_BOTTOM, pl: SAFE_LEFT, pr: SAFE_RIGHT }}
      >
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
