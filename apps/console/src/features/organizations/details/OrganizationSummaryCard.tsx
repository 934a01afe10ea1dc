import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatInstant } from '../../../lib/zone-label';
import { toOrganization } from '../../../paths';
import type { OrganizationDetails } from '../types';
import { useReadOnly } from '../../../components/read-only';

/** Initial-letter avatar, title, 'belongs to' the parent, created at, last update; and the delete action. */
export function OrganizationSummaryCard({ organization, onDelete }: { organization: OrganizationDetails; onDelete: () => void }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const initial = organization.title.trim().charAt(0).toUpperCase() || '?';
  const deleteButton = (
    <Button color="error" variant="outlined" startIcon={<DeleteIcon />} disabled={organization.protected} onClick={onDelete}>
      {t('organizations.menu.delete')}
    </Button>
  );
  return (
    <Card variant="outlined" component="section" aria-labelledby="organization-summary-title">
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2.5 }}>
        <Avatar aria-hidden="true" sx={{ width: 64, height: 64, bgcolor: 'primary.dark', color: '#fff', fontSize: 28 }}>
          {initial}
        </Avatar>
        <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
          <Typography id="organization-summary-title" variant="h5" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {organization.title}
          </Typography>
          {organization.parent_id ? (
            <Typography variant="body2" color="text.secondary">
              {t('organizations.summary.belongsTo')}{' '}
              <Link component={RouterLink} to={toOrganization(organization.parent_id)}>
                {organization.parent_title}
              </Link>
            </Typography>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('organizations.summary.topLevel')}
            </Typography>
          )}
          {organization.description ? (
            <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {organization.description}
            </Typography>
          ) : null}
        </Box>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2, rowGap: 0.5, '& dt': { color: 'text.secondary' }, '& dd': { m: 0 } }}>
          <Typography component="dt" variant="body2">
            {t('organizations.summary.createdAt')}
          </Typography>
          <Typography component="dd" variant="body2">
            {formatInstant(organization.created_at)}
          </Typography>
          <Typography component="dt" variant="body2">
            {t('organizations.summary.updatedAt')}
          </Typography>
          <Typography component="dd" variant="body2">
            {formatInstant(organization.updated_at ?? organization.created_at)}
          </Typography>
        </Box>
        <Box sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {readOnly ? null : organization.protected ? (
            <Tooltip title={t('organizations.protected')}>
              <span>{deleteButton}</span>
            </Tooltip>
          ) : (
            deleteButton
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
