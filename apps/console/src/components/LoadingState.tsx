import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export function LoadingState({ minHeight = 160 }: { minHeight?: number }) {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, minHeight }}>
      <CircularProgress size={24} aria-hidden="true" />
      <Typography>{t('common.loading')}</Typography>
    </Box>
  );
}
