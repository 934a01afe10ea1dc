import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { toIndex } from '../paths';

/** The title bar of the blank and default layouts. */
export function TitleBar() {
  const { t } = useTranslation();
  return (
    <AppBar position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Link component={RouterLink} to={toIndex()} underline="none" color="inherit" sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography component="span" variant="h6" sx={{ fontWeight: 700 }}>
            {t('app.title')}
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary">
            {t('app.subtitle')}
          </Typography>
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <LanguageSwitch />
      </Toolbar>
    </AppBar>
  );
}
