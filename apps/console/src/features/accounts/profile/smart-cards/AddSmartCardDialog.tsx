import { useId } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../lib/format-date';
import type { RegisterModeState } from './use-register-mode';

/**
 * 'Add a smartcard' (spec tab 3): persistent, 500 wide, 'Scan a card in order to add it' and Cancel.
 * It waits while register mode is armed; the live message of the registered card closes it.
 */
export function AddSmartCardDialog({ state, onCancel }: { state: RegisterModeState; onCancel: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const waiting = !state.error;
  return (
    <Dialog
      open={state.open}
      disableEscapeKeyDown
      aria-labelledby={titleId}
      aria-describedby={textId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{t('smartCards.dialog.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <DialogContentText id={textId}>{t('smartCards.dialog.text')}</DialogContentText>
        {state.error ? <Alert severity="error">{state.error}</Alert> : null}
        {waiting ? <LinearProgress aria-label={state.expiresAt ? t('smartCards.dialog.waiting') : t('smartCards.dialog.arming')} /> : null}
        {waiting && state.expiresAt ? (
          <Typography variant="body2" color="text.secondary">
            {t('smartCards.dialog.armed', { count: state.readers.length, time: formatDateTime(state.expiresAt) })}
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
