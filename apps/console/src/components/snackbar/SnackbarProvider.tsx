import { useCallback, useMemo, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import SnackbarContent from '@mui/material/SnackbarContent';
import { blueGrey, green, grey } from '@mui/material/colors';
import { useTranslation } from 'react-i18next';
import { SnackbarContext, type SnackbarApi, type SnackbarVariant } from './snackbar-context';

/** Spec: the notice bar disappears after 6000 ms. */
export const SNACKBAR_TIMEOUT_MS = 6000;

const BACKGROUND: Record<SnackbarVariant, string> = {
  notice: grey[900],
  success: green[800],
  error: blueGrey[700],
};

interface Notice {
  key: number;
  message: string;
  variant: SnackbarVariant;
}

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback<SnackbarApi['notify']>((message, variant = 'notice') => {
    setNotice({ key: Date.now(), message, variant });
    setOpen(true);
  }, []);
  const api = useMemo(() => ({ notify }), [notify]);

  const close = (_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  };

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <Snackbar
        key={notice?.key}
        open={open}
        autoHideDuration={SNACKBAR_TIMEOUT_MS}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <SnackbarContent
          sx={{ bgcolor: BACKGROUND[notice?.variant ?? 'notice'], color: '#fff' }}
          message={notice?.message}
          data-variant={notice?.variant}
          action={
            <Button color="inherit" size="small" onClick={() => close()}>
              {t('common.close')}
            </Button>
          }
        />
      </Snackbar>
    </SnackbarContext.Provider>
  );
}
