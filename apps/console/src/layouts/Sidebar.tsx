import { memo, useState } from 'react';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { styled } from '@mui/material/styles';
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
import { isNavItemActive, NAV_ITEMS, type NavItem } from './nav-items';
import { mePath } from '../paths';

interface SidebarProps {
  account: TCurrentAccount | undefined;
  onSignOut: () => void;
  /** Called when an entry is chosen (the small-screen drawer closes). */
  onNavigate?: () => void;
}

// static styles, made once (not `sx` worked out on every render)
const Nav = styled('nav')({ display: 'flex', flexDirection: 'column' });
const Header = styled('div')(({ theme }) => ({ padding: theme.spacing(2, 2.5) }));
const Title = styled(Typography)({ fontWeight: 700, lineHeight: 1.2 }) as typeof Typography;
const SubItemButton = styled(ListItemButton)(({ theme }) => ({ paddingLeft: theme.spacing(4) })) as typeof ListItemButton;

/** the application's name: renders again only when the language changes */
const SidebarHeader = memo(function SidebarHeader() {
  const { t } = useTranslation();
  return (
    <Header>
      <Title component="p" variant="h6">
        {t('app.title')}
      </Title>
      <Typography component="p" variant="body2" color="text.secondary">
        {t('app.subtitle')}
      </Typography>
    </Header>
  );
});

/** one entry of the menu: renders again only when its label or its being the current screen changes */
const NavEntry = memo(function NavEntry({ item, label, active, onNavigate }: { item: NavItem; label: string; active: boolean; onNavigate?: () => void }) {
  return (
    <ListItem disablePadding>
      <ListItemButton component={RouterLink} to={item.to} selected={active} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
        <ListItemIcon>
          <item.Icon />
        </ListItemIcon>
        <ListItemText primary={label} />
      </ListItemButton>
    </ListItem>
  );
});

export function Sidebar({ account, onSignOut, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [profileOpen, setProfileOpen] = useState(false);
  const grants = grantsFrom(account?.grants ?? { everywhere: [], anywhere: [], within: {} });

  return (
    <Nav aria-label={t('layout.navigation')}>
      <SidebarHeader />
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
            <SubItemButton component={RouterLink} to={mePath} selected={pathname === mePath} aria-current={pathname === mePath ? 'page' : undefined} onClick={onNavigate}>
              <ListItemIcon>
                <PersonIcon />
              </ListItemIcon>
              <ListItemText primary={t('userMenu.myAccount')} />
            </SubItemButton>
            <SubItemButton onClick={onSignOut}>
              <ListItemIcon>
                <LogoutIcon />
              </ListItemIcon>
              <ListItemText primary={t('layout.logout')} />
            </SubItemButton>
          </List>
        </Collapse>
      </List>
      <Divider />
      <List>
        {NAV_ITEMS.filter((item) => grants.may(item.permission)).map((item) => (
          <NavEntry key={item.to} item={item} label={t(item.labelKey)} active={isNavItemActive(item, pathname)} onNavigate={onNavigate} />
        ))}
      </List>
    </Nav>
  );
}
