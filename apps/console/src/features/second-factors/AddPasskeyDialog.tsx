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
import type { TSecondFactorEnrolmentProof } from '@rollcall/contracts';
import { describeError, getApiError } from '../../api/api-error';
import { createPasskey, passkeyCancelled } from '../../components/passkeys/passkey-ceremony';
import { trpc } from '../../trpc';
import { ConfirmWithPasswordDialog, needsPassword } from './ConfirmWithPasswordDialog';
import { ConfirmWithSecondFactorDialog } from './ConfirmWithSecondFactorDialog';
import { RecoveryCodesList } from './RecoveryCodesList';

/**
 * Adding a passkey (docs/adr/0029): a name first (to tell them apart), then the server's options
 * (a challenge bound to this session), the browser's dialog, and the registration. The first factor
 * of an account brings its ten recovery codes, shown here once. An account that already has a second
 * factor confirms with a current one before the options are given (`confirmFirst`, review R24 F3);
 * one without, whose session signed in more than five minutes ago, gives its current password when
 * the API asks for it (review R24b F1). Mounted while open (a fresh form each time).
 */
export function AddPasskeyDialog({ open, onClose, onAdded, confirmFirst }: { open: boolean; onClose: () => void; onAdded: () => void; confirmFirst?: { hasPasskey: boolean } }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmError, setConfirmError] = useState<unknown>(null);
  const [askPassword, setAskPassword] = useState(false);
  const options = trpc.secondFactors.passkeyRegistrationOptions.useMutation();
  const register = trpc.secondFactors.registerPasskey.useMutation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmFirst) return void ceremony();
    setConfirmError(null);
    setConfirming(true);
  };
  const ceremony = async (confirmation?: TSecondFactorEnrolmentProof) => {
    setBusy(true);
    setError(null);
    let created;
    try {
      created = await options.mutateAsync(confirmation ? { confirmation } : {});
    } catch (failure) {
      // a wrong or missing code or password is said in the confirmation, which stays open
      if (confirmation) setConfirmError(failure);
      else if (needsPassword(failure)) {
        setConfirmError(null);
        setAskPassword(true);
      } else setError(failure);
      setBusy(false);
      return;
    }
    setConfirming(false);
    setAskPassword(false);
    try {
      const response = await createPasskey(created);
      const registered = await register.mutateAsync({ name: name.trim(), response: response });
      onAdded();
      if (registered.recovery_codes) setCodes(registered.recovery_codes);
      else onClose();
    } catch (failure) {
      if (!passkeyCancelled(failure)) setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const nameError = getApiError(error)?.fields?.name?.join(' ');
  return (
    <>
      {confirming && confirmFirst && (
        <ConfirmWithSecondFactorDialog
          open
          title={t('secondFactors.confirm.addTitle')}
          destructive={false}
          message={t('secondFactors.confirm.addMessage')}
          hasPasskey={confirmFirst.hasPasskey}
          busy={busy}
          error={confirmError}
          onConfirm={(confirmation) => void ceremony(confirmation)}
          onCancel={() => setConfirming(false)}
        />
      )}
      {askPassword && (
        <ConfirmWithPasswordDialog
          busy={busy}
          error={confirmError}
          onConfirm={(current_password) => void ceremony({ current_password })}
          onCancel={() => setAskPassword(false)}
        />
      )}
      <Dialog open={open} disableEscapeKeyDown fullWidth maxWidth="xs" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{codes ? t('secondFactors.recoveryCodes.title') : t('secondFactors.passkeys.addTitle')}</DialogTitle>
        {codes ? (
          <DialogContent>
            <RecoveryCodesList codes={codes} onDone={onClose} />
          </DialogContent>
        ) : (
          <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
            <DialogContent sx={{ display: 'grid', gap: 2 }}>
              <DialogContentText>{t('secondFactors.passkeys.addMessage')}</DialogContentText>
              {Boolean(error) && !nameError && (
                <Alert severity="error" role="alert">
                  {describeError(error, t)}
                </Alert>
              )}
              <TextField
                label={t('secondFactors.passkeys.name')}
                name="passkey-name"
                required
                autoFocus
                value={name}
                onChange={(event) => setName(event.target.value)}
                error={Boolean(nameError)}
                helperText={nameError ?? t('secondFactors.passkeys.nameHint')}
                slotProps={{ htmlInput: { maxLength: 64 } }}
              />
            </DialogContent>
            <DialogActions sx={{ px: 3, pb: 2 }}>
              <Button onClick={onClose} disabled={busy}>
                {t('secondFactors.passkeys.cancel')}
              </Button>
              <Button type="submit" variant="contained" loading={busy} disabled={!name.trim()}>
                {t('secondFactors.passkeys.create')}
              </Button>
            </DialogActions>
          </Box>
        )}
      </Dialog>
    </>
  );
}
