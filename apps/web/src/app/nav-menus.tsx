import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { LANGUAGES, setLanguage, type LanguageCode } from '@/lib/i18n';
import { useTranslation } from '@/lib/i18n-react';
import { useSession, useTill } from '@/lib/till';
import { meKey } from '@/lib/use-me';
import { paths } from './paths';

// The menus and the drawer load on first use: Menu, Popover and Modal would otherwise weigh on the
// first screen of every visitor, most of whom never open them.

/**
 * The languages to switch to. Signed in, the choice is also the account's (updateInfo `lang`): the
 * next sign-in, on any device, comes back in it, and so do the account's mails.
 */
export function LanguageMenuList({ anchor, onClose }: { anchor: HTMLElement; onClose: () => void }) {
  const { i18n } = useTranslation();
  const till = useTill();
  const session = useSession();
  const client = useQueryClient();
  const choose = async (lang: LanguageCode) => {
    await setLanguage(i18n, lang);
    if (!session.loggedIn || session.user?.lang === lang) return;
    const res = await till.api.updateInfo({ lang });
    // Not saved (offline, session ended): the interface keeps the language for this device.
    if (res.code === 900) client.setQueryData(meKey, res.user);
  };
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {LANGUAGES.map((l) => (
        <MenuItem
          key={l.code}
          lang={l.code}
          selected={i18n.language === l.code}
          onClick={() => {
            void choose(l.code);
            onClose();
          }}
        >
          {l.label}
        </MenuItem>
      ))}
    </Menu>
  );
}

export function AccountMenuList({
  anchor,
  email,
  onClose,
  onSignOut,
}: {
  anchor: HTMLElement;
  email: string;
  onClose: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      <MenuItem disabled>{email}</MenuItem>
      <MenuItem component={RouterLink} to={paths.profile.href()} onClick={onClose}>
        {t('nav.profile')}
      </MenuItem>
      <MenuItem onClick={onSignOut}>{t('nav.signOut')}</MenuItem>
    </Menu>
  );
}

export function NavDrawer({
  items,
  current,
  onClose,
}: {
  items: { to: string; label: string }[];
  current: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer open onClose={onClose}>
      <Box component="nav" aria-label={t('nav.main')} sx={{ width: 260 }} onClick={onClose}>
        <Typography variant="h6" component="p" sx={{ p: 2 }}>
          Till
        </Typography>
        <Divider />
        <List>
          {items.map((i) => (
            <ListItemButton key={i.to} component={RouterLink} to={i.to} selected={current === i.to}>
              <ListItemText primary={i.label} />
            </ListItemButton>
          ))}
        </List>
      </Box>
    </Drawer>
  );
}
