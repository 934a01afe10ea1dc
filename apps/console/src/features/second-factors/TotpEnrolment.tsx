import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';
import { LoadingState } from '../../components/LoadingState';
import { trpc } from '../../trpc';
import { ConfirmWithPasswordDialog, needsPassword } from './ConfirmWithPasswordDialog';
import { ConfirmWithSecondFactorDialog } from './ConfirmWithSecondFactorDialog';
import { RecoveryCodesList } from './RecoveryCodesList';

/**
 * Enrolling an authenticator app (docs/adr/0025): the server makes the secret and its QR code; the
 * account scans it (or types the secret), proves it with a first code, and, when it had none, gets
 * its recovery codes shown once. `onDone` runs once the codes are put away (or none came). An
 * account that already has a second factor confirms with a current one before the secret is made
 * (`confirmFirst`, review R24 F3); one without, whose session signed in more than five minutes ago,
 * gives its current password when the API asks for it (review R24b F1).
 */
export function TotpEnrolment({ onDone, onCancel, confirmFirst }: { onDone: () => void; onCancel?: () => void; confirmFirst?: { hasPasskey: boolean } }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const start = trpc.secondFactors.startTotp.useMutation();
  const confirm = trpc.secondFactors.confirmTotp.useMutation({ onSuccess: () => void utils.secondFactors.mine.invalidate() });
  const [code, setCode] = useState('');
  // the API asked for the current password: the dialog stays until the secret is made or it is cancelled
  const [askPassword, setAskPassword] = useState(false);
  // cancelled where there is nothing to go back to (the enrolment a policy requires): said on the page, with a way back
  const [passwordDismissed, setPasswordDismissed] = useState(false);
  if (!askPassword && !start.data && needsPassword(start.error)) setAskPassword(true);
  const started = useRef(false);
  useEffect(() => {
    // one enrolment per mount (StrictMode mounts twice in development); after the confirmation when one is asked
    if (started.current || confirmFirst) return;
    started.current = true;
    start.mutate({});
  }, [start, confirmFirst]);

  if (confirm.data) {
    return confirm.data.recovery_codes ? <RecoveryCodesList codes={confirm.data.recovery_codes} onDone={onDone} /> : (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Alert severity="success">{t('secondFactors.enrol.done')}</Alert>
        <Button variant="contained" onClick={onDone}>
          {t('secondFactors.enrol.continue')}
        </Button>
      </Box>
    );
  }
  if (confirmFirst && !start.data) {
    return (
      <ConfirmWithSecondFactorDialog
        open
        title={t('secondFactors.confirm.addTitle')}
        destructive={false}
        message={t('secondFactors.confirm.addMessage')}
        hasPasskey={confirmFirst.hasPasskey}
        busy={start.isPending}
        error={start.error}
        onConfirm={(confirmation) => start.mutate({ confirmation })}
        onCancel={() => onCancel?.()}
      />
    );
  }
  if (askPassword && !start.data) {
    if (passwordDismissed) {
      return (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Alert severity="info">{t('errors.second_factor.reauthentication_required')}</Alert>
          <Box>
            <Button variant="contained" onClick={() => setPasswordDismissed(false)}>
              {t('secondFactors.reauth.again')}
            </Button>
          </Box>
        </Box>
      );
    }
    return (
      <ConfirmWithPasswordDialog
        busy={start.isPending}
        error={start.error}
        onConfirm={(current_password) => start.mutate({ confirmation: { current_password } })}
        onCancel={() => (onCancel ? onCancel() : setPasswordDismissed(true))}
      />
    );
  }
  if (start.error) {
    return (
      <Alert severity="error" role="alert">
        {describeError(start.error, t)}
      </Alert>
    );
  }
  if (!start.data) return <LoadingState />;
  const enrolment = start.data;
  const codeErrors = getApiError(confirm.error)?.fields?.code;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate({ enrolment_id: enrolment.enrolment_id, code: code.trim() });
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="body2">{t('secondFactors.enrol.scan')}</Typography>
      <Box component="img" src={enrolment.qr_code} alt={t('secondFactors.enrol.qrAlt')} sx={{ width: 220, height: 220, justifySelf: 'center', imageRendering: 'pixelated' }} />
      <TextField
        label={t('secondFactors.enrol.secret')}
        value={enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        helperText={t('secondFactors.enrol.secretHint')}
        slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } }, htmlInput: { 'data-testid': 'totp-secret', 'data-secret': enrolment.secret } }}
      />
      {confirm.error && !codeErrors && (
        <Alert severity="error" role="alert">
          {describeError(confirm.error, t)}
        </Alert>
      )}
      <TextField
        label={t('secondFactors.enrol.code')}
        name="code"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={Boolean(codeErrors)}
        helperText={codeErrors ? describeError(confirm.error, t) : t('secondFactors.enrol.codeHint')}
        slotProps={{ htmlInput: { maxLength: 64, inputMode: 'numeric' } }}
      />
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        {onCancel && <Button onClick={onCancel}>{t('secondFactors.enrol.cancel')}</Button>}
        <Button type="submit" variant="contained" loading={confirm.isPending} disabled={!code.trim()}>
          {t('secondFactors.enrol.confirm')}
        </Button>
      </Box>
    </Box>
  );
}
