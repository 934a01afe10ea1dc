import { useState } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TCurrentAccount } from '@rollcall/contracts';
import { grantsFrom } from '../auth/use-grants';
import { fullName } from '../lib/account-name';
import { isNavItemActive, NAV_ITEMS } from './nav-items';
import { mePath } from '../paths';

interface SidebarProps {
  account: TCurrentAccount | undefined;
  onSignOut: () => void;
  /** Called when an entry is chosen (the small-screen drawer closes). */
  onNavigate?: () => void;
}

export function Sidebar({ account, onSignOut, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [profileOpen, setProfileOpen] = useState(false);
  const grants = grantsFrom(account?.grants ?? { everywhere: [], anywhere: [], within: {} });

  return (
    <Box component="nav" aria-label={t('layout.navigation')} sx={{ display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ px: 2.5, py: 2 }}>
        <Typography component="p" variant="h6" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
          {t('app.title')}
        </Typography>
        <Typography component="p" variant="body2" color="text.secondary">
          {t('app.subtitle')}
        </Typography>
      </Box>
      <Divider />
      <List component="div" disablePadding>
        <ListItemButton
          onClick={() => setProfileOpen((open) => !open)}
          aria-expanded={profileOpen}
          aria-controls="sidebar-my-profile"
        >
          <ListItemIcon>
            <AccountCircleIcon />
          </ListItemIcon>
          <ListItemText primary={t('layout.myProfile')} secondary={account ? fullName(account) : undefined} />
          {profileOpen ? <ExpandLessIcon aria-hidden="true" /> : <ExpandMoreIcon aria-hidden="true" />}
        </ListItemButton>
        <Collapse in={profileOpen} id="sidebar-my-profile" unmountOnExit>
          <List component="div" disablePadding>
            <ListItemButton sx={{ pl: 4 }} component={RouterLink} to={mePath} selected={pathname === mePath} aria-current={pathname === mePath ? 'page' : undefined} onClick={onNavigate}>
              <ListItemIcon>
                <PersonIcon />
              </ListItemIcon>
              <ListItemText primary={t('userMenu.myAccount')} />
            </ListItemButton>
            <ListItemButton sx={{ pl: 4 }} onClick={onSignOut}>
              <ListItemIcon>
                <LogoutIcon />
              </ListItemIcon>
              <ListItemText primary={t('layout.logout')} />
            </ListItemButton>
          </List>
        </Collapse>
      </List>
      <Divider />
      <List>
        {NAV_ITEMS.filter((item) => grants.may(item.permission)).map((item) => {
          const active = isNavItemActive(item, pathname);
          return (
            <ListItem key={item.to} disablePadding>
              <ListItemButton
                component={RouterLink}
                to={item.to}
                selected={active}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
              >
                <ListItemIcon>
                  <item.Icon />
                </ListItemIcon>
                <ListItemText primary={t(item.labelKey)} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
