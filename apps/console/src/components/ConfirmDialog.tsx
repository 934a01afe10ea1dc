import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** while the confirmed action runs: both buttons wait */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The spec's generic confirm dialog: persistent (no closing by backdrop or Escape), Confirm and
 * Cancel, 500px wide.
 */
export function ConfirmDialog({ open, title, message, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  return (
    <Dialog
      open={open}
      disableEscapeKeyDown
      aria-labelledby={titleId}
      aria-describedby={messageId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={messageId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button onClick={onConfirm} variant="contained" color="error" loading={busy}>
          {t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
