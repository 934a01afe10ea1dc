import { memo, Suspense, useCallback, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { styled, useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { GlobalProgress } from '../components/GlobalProgress';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { LoadingState } from '../components/LoadingState';
import { useSignOut } from '../auth/use-sign-out';
import { DRAWER_WIDTH } from '../theme';
import { trpc } from '../trpc';
import { Sidebar } from './Sidebar';
import { UserMenu } from './UserMenu';

// The shell's styles are static: styled components made once here, not `sx` objects worked out on
// every render (MUI's sx resolves theme keys and breakpoints each time before emotion serializes).

const Root = styled('div')(({ theme }) => ({ display: 'flex', minHeight: '100vh', backgroundColor: theme.palette.background.default }));

/** the first stop of the keyboard: past the top bar and the menu, straight to the screen (WCAG 2.4.1) */
const SkipLink = styled('a')(({ theme }) => ({
  position: 'absolute',
  left: 8,
  top: -48,
  zIndex: theme.zIndex.tooltip + 1,
  padding: theme.spacing(1, 2),
  backgroundColor: theme.palette.background.paper,
  color: theme.palette.primary.main,
  border: `2px solid ${theme.palette.primary.main}`,
  borderRadius: theme.shape.borderRadius,
  '&:focus': { top: 8 },
}));

const ShellAppBar = styled(AppBar)(({ theme }) => ({
  [theme.breakpoints.up('md')]: { width: `calc(100% - ${DRAWER_WIDTH}px)`, marginLeft: DRAWER_WIDTH },
  borderBottom: `1px solid ${theme.palette.divider}`,
}));

const ShellToolbar = styled(Toolbar)({ gap: 12 });

const Grow = styled('div')({ flexGrow: 1 });

const DrawerSlot = styled('div')(({ theme }) => ({ [theme.breakpoints.up('md')]: { width: DRAWER_WIDTH, flexShrink: 0 } }));

const ShellDrawer = styled(Drawer)({ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } });

const Main = styled('main')(({ theme }) => ({
  flexGrow: 1,
  minWidth: 0,
  padding: theme.spacing(2),
  [theme.breakpoints.up('sm')]: { padding: theme.spacing(3) },
  '&:focus': { outline: 'none' },
}));

function skipToContent(event: React.MouseEvent) {
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

/*
 * Only these two read `auth.me` (and the sign-out): when it arrives they render again, the shell
 * around them and the screen do not.
 */
const AccountMenu = memo(function AccountMenu() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const { signOut } = useSignOut();
  const onSignOut = useCallback(() => void signOut(), [signOut]);
  return <UserMenu account={me.data} onSignOut={onSignOut} />;
});

const AccountSidebar = memo(function AccountSidebar({ onNavigate }: { onNavigate: () => void }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const { signOut } = useSignOut();
  const onSignOut = useCallback(() => void signOut(), [signOut]);
  return <Sidebar account={me.data} onSignOut={onSignOut} onNavigate={onNavigate} />;
});

/** the top bar; renders again only when the language or the screen size changes */
const TopBar = memo(function TopBar({ isDesktop, onOpenMenu }: { isDesktop: boolean; onOpenMenu: () => void }) {
  const { t } = useTranslation();
  return (
    <ShellAppBar position="fixed" color="inherit" elevation={0}>
      <ShellToolbar>
        {!isDesktop && (
          <IconButton edge="start" aria-label={t('layout.openMenu')} onClick={onOpenMenu}>
            <MenuIcon />
          </IconButton>
        )}
        <Grow />
        <LanguageSwitch />
        <AccountMenu />
      </ShellToolbar>
      <GlobalProgress />
    </ShellAppBar>
  );
});

/** the screen below the top bar; its own element, so the shell's state (the phone's menu) leaves it alone */
const Content = memo(function Content() {
  return (
    <Main id="main-content" tabIndex={-1}>
      <Toolbar />
      <Suspense fallback={<LoadingState />}>
        <Outlet />
      </Suspense>
    </Main>
  );
});

/** Side bar (fixed 280 px drawer, closed on small screens), app bar and main area. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const openMenu = useCallback(() => setMobileOpen(true), []);
  const closeMenu = useCallback(() => setMobileOpen(false), []);

  return (
    <Root>
      <SkipLink href="#main-content" onClick={skipToContent}>
        {t('layout.skipToContent')}
      </SkipLink>
      <TopBar isDesktop={isDesktop} onOpenMenu={openMenu} />

      <DrawerSlot>
        {isDesktop ? (
          <ShellDrawer variant="permanent" open>
            <AccountSidebar onNavigate={closeMenu} />
          </ShellDrawer>
        ) : (
          <ShellDrawer
            variant="temporary"
            open={mobileOpen}
            onClose={closeMenu}
            ModalProps={{ keepMounted: true }}
            slotProps={{ paper: { 'aria-label': t('layout.navigation') } }}
          >
            <AccountSidebar onNavigate={closeMenu} />
          </ShellDrawer>
        )}
      </DrawerSlot>

      <Content />
    </Root>
  );
}
