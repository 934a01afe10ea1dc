import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';

/** the API's answer when a first factor needs the current password (docs/adr/0025, 'Amendment') */
export const needsPassword = (error: unknown) => getApiError(error)?.code === 'second_factor.reauthentication_required';

/**
 * Adding the first second factor from a session that signed in more than five minutes ago asks for
 * the current password (review R24b F1): a stolen or left-open session plants no factor. A wrong
 * password is said under the field and counts against the account's lockout like a wrong sign-in;
 * anything else (too many attempts) above it. Mounted while open (a fresh form each time).
 */
export function ConfirmWithPasswordDialog({ busy, error, onConfirm, onCancel }: { busy: boolean; error: unknown; onConfirm: (currentPassword: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  const [password, setPassword] = useState('');
  // the refusal that opened this dialog is its message, not an error of what was typed
  const shown = needsPassword(error) ? null : error;
  const fieldError = getApiError(shown)?.fields?.current_password ? describeError(shown, t) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onConfirm(password);
  };
  return (
    <Dialog open disableEscapeKeyDown aria-labelledby={titleId} aria-describedby={messageId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('secondFactors.reauth.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <DialogContentText id={messageId}>{t('secondFactors.reauth.message')}</DialogContentText>
          {Boolean(shown) && !fieldError && (
            <Alert severity="error" role="alert">
              {describeError(shown, t)}
            </Alert>
          )}
          <TextField
            label={t('secondFactors.reauth.password')}
            name="current-password"
            type="password"
            autoComplete="current-password"
            autoFocus
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={Boolean(fieldError)}
            helperText={fieldError ?? ' '}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={busy}>
            {t('secondFactors.reauth.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy} disabled={!password}>
            {t('secondFactors.reauth.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
