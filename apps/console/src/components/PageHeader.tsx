import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from './use-document-title';

export interface PageCrumb {
  label: string;
  to: string;
}

/**
 * A screen's heading (h1), its way back (`crumbs`: the screens above it, ending before this one)
 * and its actions. The heading also titles the browser tab.
 */
export function PageHeader({ title, actions, crumbs }: { title: string; actions?: ReactNode; crumbs?: PageCrumb[] }) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <Box sx={{ mb: 3 }}>
      {crumbs?.length ? (
        <Breadcrumbs aria-label={t('layout.breadcrumbs')} sx={{ mb: 0.5 }}>
          {crumbs.map((crumb) => (
            <Link key={crumb.to} component={RouterLink} to={crumb.to} underline="hover" color="inherit">
              {crumb.label}
            </Link>
          ))}
          <Typography color="text.primary" aria-current="page">
            {title}
          </Typography>
        </Breadcrumbs>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}>
        <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {actions ? <Box sx={{ display: 'flex', gap: 1 }}>{actions}</Box> : null}
      </Box>
    </Box>
  );
}
