import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TSecondFactorConfirmation } from '@rollcall/contracts';
import { describeError } from '../../api/api-error';
import { getPasskeyAssertion, passkeyCancelled, passkeysSupported } from '../../components/passkeys/passkey-ceremony';
import { trpc } from '../../trpc';

/**
 * Removing a factor or replacing the recovery codes from one's own page asks for a current second
 * factor first (docs/adr/0029): a code from the app, a recovery code, or one of the passkeys (the
 * server's options bound to this session, then the browser's dialog). A wrong one counts against
 * the account's lockout like a wrong sign-in. Mounted while open (a fresh form each time). The
 * confirming button takes the error colour for what takes something away (a removal, a set of codes
 * replaced), the primary colour for adding a factor.
 */
export function ConfirmWithSecondFactorDialog({
  open,
  title,
  message,
  hasPasskey,
  busy,
  error,
  onConfirm,
  onCancel,
  destructive = true,
}: {
  open: boolean;
  title: string;
  message: string;
  /** the account has a passkey to confirm with */
  hasPasskey: boolean;
  busy: boolean;
  error: unknown;
  onConfirm: (confirmation: TSecondFactorConfirmation) => void;
  onCancel: () => void;
  /** false where the confirmation adds a factor: nothing is taken away, so the button is not red */
  destructive?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  const [code, setCode] = useState('');
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const options = trpc.secondFactors.confirmationOptions.useMutation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) onConfirm({ code: code.trim() });
  };
  const withPasskey = async () => {
    setAsking(true);
    setPasskeyError(null);
    try {
      onConfirm({ passkey: (await getPasskeyAssertion(await options.mutateAsync())) });
    } catch (failure) {
      if (!passkeyCancelled(failure)) setPasskeyError(failure);
    } finally {
      setAsking(false);
    }
  };
  const shownError = error ?? passkeyError;
  return (
    <Dialog open={open} disableEscapeKeyDown aria-labelledby={titleId} aria-describedby={messageId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <DialogContentText id={messageId}>{message}</DialogContentText>
          {Boolean(shownError) && (
            <Alert severity="error" role="alert">
              {describeError(shownError, t)}
            </Alert>
          )}
          {hasPasskey && passkeysSupported() && (
            <>
              <Button variant="outlined" onClick={() => void withPasskey()} loading={asking} disabled={busy}>
                {t('secondFactors.confirm.usePasskey')}
              </Button>
              <Divider>{t('secondFactors.signIn.or')}</Divider>
            </>
          )}
          <TextField
            label={t('secondFactors.confirm.code')}
            name="confirmation-code"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            helperText={t('secondFactors.confirm.codeHint')}
            slotProps={{ htmlInput: { maxLength: 64, spellCheck: false, autoCapitalize: 'off' } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={busy || asking}>
            {t('secondFactors.confirm.cancel')}
          </Button>
          <Button type="submit" variant="contained" color={destructive ? 'error' : 'primary'} loading={busy} disabled={!code.trim() || asking}>
            {t('secondFactors.confirm.withCode')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
