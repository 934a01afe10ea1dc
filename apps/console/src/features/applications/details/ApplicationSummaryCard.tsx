import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useTranslation } from 'react-i18next';
import type { TApplication } from '@rollcall/contracts';
import { useReadOnly } from '../../../components/read-only';
import { formatInstant } from '../../../lib/zone-label';

/** Initial, title, unique id (the OAuth2 client_id a relying party is configured with), created at, last update; and the delete action. */
export function ApplicationSummaryCard({ application, onDelete }: { application: TApplication; onDelete: () => void }) {
  const { t } = useTranslation();
  const readOnly = useReadOnly();
  const initial = application.title.trim().charAt(0).toUpperCase() || '?';
  return (
    <Card variant="outlined" component="section" aria-labelledby="application-summary-title">
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2.5 }}>
        <Avatar aria-hidden="true" sx={{ width: 64, height: 64, bgcolor: 'primary.dark', color: '#fff', fontSize: 28 }}>
          {initial}
        </Avatar>
        <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
          <Typography id="application-summary-title" variant="h5" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {application.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('applications.summary.uniqueId')}{' '}
            <Box component="span" sx={{ fontFamily: 'monospace', color: 'text.primary', overflowWrap: 'anywhere' }}>
              {application.unique_id}
            </Box>
          </Typography>
        </Box>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2, rowGap: 0.5, '& dt': { color: 'text.secondary' }, '& dd': { m: 0 } }}>
          <Typography component="dt" variant="body2">
            {t('applications.summary.createdAt')}
          </Typography>
          <Typography component="dd" variant="body2">
            {formatInstant(application.created_at)}
          </Typography>
          <Typography component="dt" variant="body2">
            {t('applications.summary.updatedAt')}
          </Typography>
          <Typography component="dd" variant="body2">
            {formatInstant(application.updated_at ?? application.created_at)}
          </Typography>
        </Box>
        {readOnly ? null : (
          <Box sx={{ width: { xs: '100%', sm: 'auto' } }}>
            <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={onDelete}>
              {t('applications.menu.delete')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
