import { Suspense, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
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

/** Side bar (fixed 280 px drawer, closed on small screens), app bar and main area. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const { signOut } = useSignOut();

  const sidebar = <Sidebar account={me.data} onSignOut={() => void signOut()} onNavigate={() => setMobileOpen(false)} />;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      {/* the first stop of the keyboard: past the top bar and the menu, straight to the screen (WCAG 2.4.1) */}
      <Box
        component="a"
        href="#main-content"
        onClick={(event: React.MouseEvent) => {
          event.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
        sx={{ position: 'absolute', left: 8, top: -48, zIndex: (theme) => theme.zIndex.tooltip + 1, px: 2, py: 1, bgcolor: 'background.paper', color: 'primary.main', border: 2, borderColor: 'primary.main', borderRadius: 1, '&:focus': { top: 8 } }}
      >
        {t('layout.skipToContent')}
      </Box>
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        sx={{
          width: { md: `calc(100% - ${DRAWER_WIDTH}px)` },
          ml: { md: `${DRAWER_WIDTH}px` },
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Toolbar sx={{ gap: 1.5 }}>
          {!isDesktop && (
            <IconButton edge="start" aria-label={t('layout.openMenu')} onClick={() => setMobileOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <Box sx={{ flexGrow: 1 }} />
          <LanguageSwitch />
          <UserMenu account={me.data} onSignOut={() => void signOut()} />
        </Toolbar>
        <GlobalProgress />
      </AppBar>

      <Box sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        {isDesktop ? (
          <Drawer
            variant="permanent"
            open
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
          >
            {sidebar}
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            ModalProps={{ keepMounted: true }}
            slotProps={{ paper: { 'aria-label': t('layout.navigation') } }}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
          >
            {sidebar}
          </Drawer>
        )}
      </Box>

      <Box component="main" id="main-content" tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 }, '&:focus': { outline: 'none' } }}>
        <Toolbar />
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
