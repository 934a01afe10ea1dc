import { memo } from 'react';
import AppBar from '@mui/material/AppBar';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { styled } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { toIndex } from '../paths';

// static styles, made once (not `sx` worked out on every render)
const Bar = styled(AppBar)(({ theme }) => ({ borderBottom: `1px solid ${theme.palette.divider}` }));
const BarToolbar = styled(Toolbar)(({ theme }) => ({ gap: theme.spacing(2) }));
const HomeLink = styled(Link)(({ theme }) => ({ display: 'flex', alignItems: 'baseline', gap: theme.spacing(1) })) as typeof Link;
const Title = styled(Typography)({ fontWeight: 700 }) as typeof Typography;
const Grow = styled('div')({ flexGrow: 1 });

/** The title bar of the blank and default layouts; renders again only when the language changes. */
export const TitleBar = memo(function TitleBar() {
  const { t } = useTranslation();
  return (
    <Bar position="static" color="inherit" elevation={0}>
      <BarToolbar>
        <HomeLink component={RouterLink} to={toIndex()} underline="none" color="inherit">
          <Title component="span" variant="h6">
            {t('app.title')}
          </Title>
          <Typography component="span" variant="body2" color="text.secondary">
            {t('app.subtitle')}
          </Typography>
        </HomeLink>
        <Grow />
        <LanguageSwitch />
      </BarToolbar>
    </Bar>
  );
});
