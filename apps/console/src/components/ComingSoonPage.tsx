import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './PageHeader';

/** Screens of later releases: the route exists, shows its title and says so. */
export default function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography>{t('common.comingLater')}</Typography>
      </Paper>
    </>
  );
}
